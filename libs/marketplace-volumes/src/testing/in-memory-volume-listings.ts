import {
  ListingAuditEntry,
  VolumeListingAuditLog,
} from '../application/ports/volume-listing-audit-log.port';
import {
  VolumeListingRepository,
  VolumeListingSeed,
} from '../application/ports/volume-listing.repository.port';
import { VolumeListing } from '../domain/volume-listing';

export class InMemoryVolumeListingRepository extends VolumeListingRepository {
  readonly rows = new Map<number, VolumeListing>();

  async findByIdForUpdate(id: number): Promise<VolumeListing | null> {
    return this.rows.get(id) ?? null;
  }

  async markUnlisted(id: number, at: Date): Promise<void> {
    const row = this.rows.get(id);
    if (row) this.rows.set(id, { ...row, status: 'unlisted', unlistedAt: at, updatedAt: at });
  }

  async upsert(seed: VolumeListingSeed): Promise<void> {
    const now = new Date(0);
    this.rows.set(seed.id, {
      ...seed,
      createdAt: now,
      updatedAt: now,
      unlistedAt: seed.status === 'unlisted' ? now : null,
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
