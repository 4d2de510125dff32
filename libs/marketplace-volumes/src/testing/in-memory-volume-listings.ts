import {
  ListingAuditEntry,
  VolumeListingAuditLog,
} from '../application/ports/volume-listing-audit-log.port';
import {
  VolumeListingRepository,
  VolumeListingSeed,
} from '../application/ports/volume-listing.repository.port';
import { VolumeListing } from '../domain/volume-listing';

/** numeric(14, 6) answers its text with exactly 6 decimals: "0.12" is read back as "0.120000". */
function sixDecimals(price: string): string {
  const [whole, fraction = ''] = price.split('.');
  return `${whole}.${fraction.padEnd(6, '0')}`;
}

/**
 * Listings in memory, held to the PostgreSQL repository's answers by
 * testing/volume-listing-stores.contract.ts. Times it sets itself are `now`.
 */
export class InMemoryVolumeListingRepository extends VolumeListingRepository {
  readonly rows = new Map<number, VolumeListing>();

  async findByIdForUpdate(id: number): Promise<VolumeListing | null> {
    return this.rows.get(id) ?? null;
  }

  async markUnlisted(id: number, at: Date): Promise<void> {
    const row = this.rows.get(id);
    if (row) this.rows.set(id, { ...row, status: 'unlisted', unlistedAt: at, updatedAt: at });
  }

  constructor(private readonly now = () => new Date(0)) {
    super();
  }

  async upsert(seed: VolumeListingSeed): Promise<void> {
    const known = this.rows.get(seed.id);
    const now = this.now();
    this.rows.set(seed.id, {
      ...seed,
      teamId: seed.teamId ?? null,
      pricePerGbMonth: sixDecimals(seed.pricePerGbMonth),
      createdAt: known?.createdAt ?? now,
      updatedAt: now,
      // A reload keeps the time a listing was really unlisted.
      unlistedAt: seed.status === 'unlisted' ? (known?.unlistedAt ?? now) : null,
    });
  }
}

export class InMemoryVolumeListingAuditLog extends VolumeListingAuditLog {
  readonly entries: ListingAuditEntry[] = [];

  async record(entry: ListingAuditEntry): Promise<void> {
    this.entries.push(entry);
  }

  async entriesFor(listingId: number): Promise<ListingAuditEntry[]> {
    return this.entries.filter((entry) => entry.listingId === listingId);
  }
}
