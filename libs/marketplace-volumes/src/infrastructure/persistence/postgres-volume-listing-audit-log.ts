import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import {
  ListingAuditEntry,
  VolumeListingAuditLog,
} from '../../application/ports/volume-listing-audit-log.port';
import { AuditRow, toAuditEntry } from './volume-listing.mapper';

/** Append-only: the application never updates or deletes audit rows. */
@Injectable()
export class PostgresVolumeListingAuditLog extends VolumeListingAuditLog {
  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async record(entry: ListingAuditEntry): Promise<void> {
    await this.tx.rows(
      `INSERT INTO volume_listing_audit
         (listing_id, actor_user_id, action, previous_status, new_status, occurred_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        entry.listingId,
        entry.actorUserId,
        entry.action,
        entry.previousStatus,
        entry.newStatus,
        entry.occurredAt,
      ],
    );
  }

  async entriesFor(listingId: number): Promise<ListingAuditEntry[]> {
    const rows = await this.tx.rows<AuditRow>(
      `SELECT listing_id, actor_user_id, action, previous_status, new_status, occurred_at
         FROM volume_listing_audit WHERE listing_id = $1 ORDER BY id`,
      [listingId],
    );
    return rows.map(toAuditEntry);
  }
}
