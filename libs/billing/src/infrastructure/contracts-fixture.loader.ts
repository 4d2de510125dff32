import { BillingError } from '../domain/errors';
import { Injectable } from '@nestjs/common';
import { FixtureLoader, FixtureSummary } from '@app/platform';
import { ContractRepository } from '../application/ports/contract.repository.port';
import { CHARGE_TYPES, ChargeType, DAY_SECONDS } from '../domain/charge-report';
import { Contract, DailyCharge } from '../domain/contract';

type Row = Record<string, unknown>;

const DECIMAL = /^-?\d{1,20}(\.\d{1,20})?$/;

function integer(row: Row, name: string, where: string, nullable: boolean): number | null {
  const value = row[name];
  if ((value === undefined || value === null) && nullable) return null;
  if (!Number.isSafeInteger(value))
    throw new BillingError('bad_request', `${where}.${name} must be an integer`);
  return value as number;
}

function text(row: Row, name: string, where: string, nullable: boolean): string | null {
  const value = row[name];
  if ((value === undefined || value === null) && nullable) return null;
  if (typeof value !== 'string')
    throw new BillingError('bad_request', `${where}.${name} must be a string`);
  return value;
}

function decimal(row: Row, name: string, where: string): string {
  const value = row[name];
  if (typeof value !== 'string' || !DECIMAL.test(value)) {
    throw new BillingError(
      'bad_request',
      `${where}.${name} must be a decimal string such as "0.389"`,
    );
  }
  return value;
}

export function parseContractFixture(raw: Row): { contract: Contract; charges: DailyCharge[] } {
  const id = integer(raw, 'id', 'contracts', false) as number;
  if (id <= 0)
    throw new BillingError('bad_request', 'contracts: every row needs a positive integer id');
  const where = `contracts[${id}]`;
  const kind = raw.kind;
  if (kind !== 'instance' && kind !== 'volume')
    throw new BillingError('bad_request', `${where}.kind must be instance or volume`);
  const contract: Contract = {
    id,
    userId: integer(raw, 'user_id', where, false) as number,
    // Optional, as for the other resources: a team's contract (docs/teams.md "Ownership").
    teamId: integer(raw, 'team_id', where, true),
    kind,
    start: integer(raw, 'start', where, false) as number,
    end: integer(raw, 'end', where, false) as number,
    label: text(raw, 'label', where, true),
    templateId: integer(raw, 'template_id', where, true),
    endpointId: integer(raw, 'endpoint_id', where, true),
    workergroupId: integer(raw, 'workergroup_id', where, true),
  };
  if ((contract.teamId ?? 1) <= 0)
    throw new BillingError('bad_request', `${where}.team_id must be positive`);
  if (contract.end < contract.start)
    throw new BillingError('bad_request', `${where}.end must not be before start`);
  // Wrapper sources are `endpoint-<id>` / `workergroup-<id>`: the client splits them on '-'.
  if ((contract.endpointId ?? 1) <= 0)
    throw new BillingError('bad_request', `${where}.endpoint_id must be positive`);
  if ((contract.workergroupId ?? 1) <= 0)
    throw new BillingError('bad_request', `${where}.workergroup_id must be positive`);
  const rawCharges = raw.charges ?? [];
  if (!Array.isArray(rawCharges))
    throw new BillingError('bad_request', `${where}.charges must be an array`);
  const seen = new Set<string>();
  const charges = (rawCharges as Row[]).map((charge, index) => {
    const at = `${where}.charges[${index}]`;
    const day = integer(charge, 'day', at, false) as number;
    if (day % DAY_SECONDS !== 0)
      throw new BillingError('bad_request', `${at}.day must be a UTC midnight (unix seconds)`);
    const type = charge.type as ChargeType;
    if (!CHARGE_TYPES.includes(type))
      throw new BillingError('bad_request', `${at}.type must be one of ${CHARGE_TYPES.join(', ')}`);
    if (seen.has(`${day}:${type}`))
      throw new BillingError('bad_request', `${at}: one ${type} charge per day`);
    seen.add(`${day}:${type}`);
    return {
      day,
      type,
      quantity: decimal(charge, 'quantity', at),
      unit: text(charge, 'unit', at, false) as string,
      rate: decimal(charge, 'rate', at),
      amount: decimal(charge, 'amount', at),
    };
  });
  return { contract, charges };
}

/** `contracts`: explicit ids; loading again replaces the contract and all its charges. */
@Injectable()
export class ContractsFixtureLoader extends FixtureLoader {
  readonly section = 'contracts';
  readonly order = 20;

  constructor(private readonly contracts: ContractRepository) {
    super();
  }

  async load(rows: unknown[]): Promise<FixtureSummary> {
    const ids: number[] = [];
    let charges = 0;
    for (const raw of rows) {
      if (typeof raw !== 'object' || raw === null)
        throw new BillingError('bad_request', 'contracts: every row must be an object');
      const parsed = parseContractFixture(raw as Row);
      await this.contracts.replace(parsed.contract, parsed.charges);
      ids.push(parsed.contract.id);
      charges += parsed.charges.length;
    }
    return { count: ids.length, ids, charges };
  }
}
