import { VolumesError } from '../domain/errors';
import { Injectable } from '@nestjs/common';
import { FixtureLoader, FixtureSummary } from '@app/platform';
import { VolumeListingRepository } from '../application/ports/volume-listing.repository.port';
import { LISTING_STATUSES, ListingStatus, MAX_LISTING_ID } from '../domain/volume-listing';

type Row = Record<string, unknown>;

const KNOWN_FIELDS = new Set([
  'id',
  'owner_id',
  'team_id',
  'machine_id',
  'size_gb',
  'price_per_gb_month',
  'status',
  'active_rentals',
]);

/** Explicit ids stay below the generated range (docs/fixtures.md). */
const FIXTURE_ID_LIMIT = 999_999;

function integer(
  row: Row,
  name: string,
  min: number,
  fallback?: number,
  max = MAX_LISTING_ID,
): number {
  const value = row[name] ?? fallback;
  if (!Number.isInteger(value) || (value as number) < min || (value as number) > max)
    throw new VolumesError(
      'bad_request',
      `volume_listings: ${name} must be an integer from ${min} to ${max} (row ${JSON.stringify(row.id)})`,
    );
  return value as number;
}

function number(row: Row, name: string, fallback?: number): number {
  const value = row[name] ?? fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw new VolumesError(
      'bad_request',
      `volume_listings: ${name} must be a non-negative number (row ${JSON.stringify(row.id)})`,
    );
  return value;
}

/**
 * A price: a JSON number or, as in the fixtures contract, a decimal string ("0.10"). The
 * column is numeric(14, 6): a price it cannot hold exactly is refused, never rounded.
 */
function price(row: Row, name: string, fallback: number): string {
  const value = row[name] ?? fallback;
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string' || !/^\d{1,8}(\.\d{1,6})?$/.test(text))
    throw new VolumesError(
      'bad_request',
      `volume_listings: ${name} must be a non-negative decimal below 100000000 with at most 6 decimals (row ${JSON.stringify(row.id)})`,
    );
  return text;
}

/**
 * `volume_listings`: `{id, owner_id, machine_id, size_gb, price_per_gb_month, status,
 * active_rentals}`. Rows are upserted on their explicit id, so loading twice is harmless.
 */
@Injectable()
export class VolumeListingsFixtureLoader extends FixtureLoader {
  readonly section = 'volume_listings';
  readonly order = 30;

  constructor(private readonly listings: VolumeListingRepository) {
    super();
  }

  async load(rows: unknown[]): Promise<FixtureSummary> {
    const ids: number[] = [];
    for (const raw of rows) {
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
        throw new VolumesError('bad_request', 'volume_listings: every row must be an object');
      const row = raw as Row;
      const unknown = Object.keys(row).filter((key) => !KNOWN_FIELDS.has(key));
      if (unknown.length > 0)
        throw new VolumesError(
          'bad_request',
          `volume_listings: unknown fields ${unknown.join(', ')} (row ${JSON.stringify(row.id)})`,
        );
      const status = (row.status ?? 'listed') as ListingStatus;
      if (!LISTING_STATUSES.includes(status))
        throw new VolumesError('bad_request', 'volume_listings: status must be listed or unlisted');
      const sizeGb = number(row, 'size_gb');
      if (sizeGb === 0)
        throw new VolumesError('bad_request', 'volume_listings: size_gb must be positive');
      const seed = {
        id: integer(row, 'id', 1, undefined, FIXTURE_ID_LIMIT),
        ownerId: integer(row, 'owner_id', 1),
        teamId: row.team_id === undefined || row.team_id === null ? null : integer(row, 'team_id', 1),
        machineId: integer(row, 'machine_id', 1),
        sizeGb,
        pricePerGbMonth: price(row, 'price_per_gb_month', 0),
        status,
        activeRentals: integer(row, 'active_rentals', 0, 0),
      };
      await this.listings.upsert(seed);
      ids.push(seed.id);
    }
    return { count: ids.length, ids };
  }
}
