import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import {
  VolumeListingRepository,
  VolumeListingSeed,
} from '../../application/ports/volume-listing.repository.port';
import { MAX_LISTING_ID, VolumeListing } from '../../domain/volume-listing';
import { toVolumeListing, VOLUME_LISTING_COLUMNS, VolumeListingRow } from './volume-listing.mapper';

@Injectable()
export class PostgresVolumeListingRepository extends VolumeListingRepository {
  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async findByIdForUpdate(id: number): Promise<VolumeListing | null> {
    // An id the column cannot hold names no listing; asking PostgreSQL would be an error.
    if (!Number.isSafeInteger(id) || id < 1 || id > MAX_LISTING_ID) return null;
    const rows = await this.tx.rows<VolumeListingRow>(
      `SELECT ${VOLUME_LISTING_COLUMNS} FROM volume_listings WHERE id = $1 FOR UPDATE`,
      [id],
    );
    return rows[0] ? toVolumeListing(rows[0]) : null;
  }

  async markUnlisted(id: number, at: Date): Promise<void> {
    await this.tx.rows(
      `UPDATE volume_listings SET status = 'unlisted', unlisted_at = $2, updated_at = $2
        WHERE id = $1`,
      [id, at],
    );
  }

  async upsert(seed: VolumeListingSeed): Promise<void> {
    await this.tx.rows(
      `INSERT INTO volume_listings
         (id, owner_id, machine_id, size_gb, price_per_gb_month, status, active_rentals, unlisted_at, team_id)
       VALUES ($1, $2, $3, $4, $5, $6::text, $7, CASE WHEN $6::text = 'unlisted' THEN now() END, $8)
       ON CONFLICT (id) DO UPDATE SET
         owner_id = EXCLUDED.owner_id,
         team_id = EXCLUDED.team_id,
         machine_id = EXCLUDED.machine_id,
         size_gb = EXCLUDED.size_gb,
         price_per_gb_month = EXCLUDED.price_per_gb_month,
         status = EXCLUDED.status,
         active_rentals = EXCLUDED.active_rentals,
         -- A reload keeps the time a listing was really unlisted.
         unlisted_at = CASE WHEN EXCLUDED.status = 'unlisted'
           THEN COALESCE(volume_listings.unlisted_at, EXCLUDED.unlisted_at) END,
         updated_at = now()`,
      [
        seed.id,
        seed.ownerId,
        seed.machineId,
        seed.sizeGb,
        seed.pricePerGbMonth,
        seed.status,
        seed.activeRentals,
        seed.teamId ?? null,
      ],
    );
  }
}
