import { AutoscalingError } from '../domain/errors';
import { Injectable } from '@nestjs/common';
import { Clock, FixtureLoader, FixtureSummary } from '@app/platform';
import { EndpointGroupKeys } from '../application/endpoint-group-keys.service';
import { EndpointGroupRepository } from '../application/ports/endpoint-group.repository.port';
import {
  DEFAULT_ENDPOINT_GROUP_OPTIONS,
  endpointGroupOptionsProblem,
  isEndpointState,
  MAX_GROUP_ID,
  mergeEndpointGroupOptions,
} from '../domain/endpoint-group';
import { OPTION_WIRE_NAMES, optionsPatchFromWire } from '../http/endpoint-group.request';

type Row = Record<string, unknown>;

const KNOWN_FIELDS = new Set([
  'id',
  'user_id',
  'endpoint_state',
  'api_key',
  ...Object.values(OPTION_WIRE_NAMES),
]);

/**
 * Explicit group ids stay below the generated range (docs/fixtures.md): a fixture id the
 * sequence later hands out would make that create fail.
 */
const FIXTURE_ID_LIMIT = 999_999;

function positiveId(row: Row, name: string, max = MAX_GROUP_ID): number {
  const value = row[name];
  if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > max)
    throw new AutoscalingError(
      'bad_request',
      `endpoint_groups: ${name} must be an integer from 1 to ${max} (row ${JSON.stringify(row.id)})`,
    );
  return value as number;
}

/**
 * `endpoint_groups`: `{id, user_id, endpoint_name, ...options, endpoint_state?, api_key?}`,
 * upserted on the explicit id and validated by the same rules as the API. Without an
 * api_key, a reload keeps the group's existing key (or makes one for a new group).
 */
@Injectable()
export class EndpointGroupsFixtureLoader extends FixtureLoader {
  readonly section = 'endpoint_groups';
  readonly order = 40;

  constructor(
    private readonly groups: EndpointGroupRepository,
    private readonly keys: EndpointGroupKeys,
    private readonly clock: Clock,
  ) {
    super();
  }

  async load(rows: unknown[]): Promise<FixtureSummary> {
    const ids: number[] = [];
    for (const raw of rows) {
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
        throw new AutoscalingError('bad_request', 'endpoint_groups: every row must be an object');
      const row = raw as Row;
      const id = positiveId(row, 'id', FIXTURE_ID_LIMIT);
      const unknown = Object.keys(row).filter((key) => !KNOWN_FIELDS.has(key));
      if (unknown.length > 0)
        throw new AutoscalingError(
          'bad_request',
          `endpoint_groups: unknown fields ${unknown.join(', ')} (row ${id})`,
        );
      const state = row.endpoint_state ?? 'active';
      if (!isEndpointState(state))
        throw new AutoscalingError(
          'bad_request',
          'endpoint_groups: endpoint_state must be active, suspended or stopped',
        );
      if (row.api_key !== undefined && (typeof row.api_key !== 'string' || !row.api_key))
        throw new AutoscalingError(
          'bad_request',
          `endpoint_groups: api_key must be a non-empty string (row ${id})`,
        );
      const options = mergeEndpointGroupOptions(
        DEFAULT_ENDPOINT_GROUP_OPTIONS,
        optionsPatchFromWire(row),
      );
      const problem = endpointGroupOptionsProblem(options);
      if (problem) {
        throw new AutoscalingError(
          'bad_request',
          `endpoint_groups: row ${id}: Invalid request: ${problem}`,
        );
      }
      const existing = await this.groups.findById(id);
      const apiKeyCiphertext =
        typeof row.api_key === 'string'
          ? this.keys.seal(id, row.api_key)
          : (existing?.apiKeyCiphertext ?? this.keys.seal(id, this.keys.generate()));
      await this.groups.upsert({
        id,
        userId: positiveId(row, 'user_id'),
        options,
        state,
        apiKeyCiphertext,
        createdAt: existing?.createdAt ?? this.clock.now(),
      });
      ids.push(id);
    }
    return { count: ids.length, ids };
  }
}
