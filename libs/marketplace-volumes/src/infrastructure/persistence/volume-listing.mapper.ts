import { ListingAuditEntry } from '../../application/ports/volume-listing-audit-log.port';
import { ListingStatus, VolumeListing } from '../../domain/volume-listing';

/** A row of volume_listings as the pg driver returns it. */
export interface VolumeListingRow {
  id: number;
  owner_id: number;
  team_id: number | null;
  machine_id: number;
  size_gb: number;
  /** numeric: the driver returns exact decimal text. */
  price_per_gb_month: string;
  status: ListingStatus;
  active_rentals: number;
  created_at: Date;
  updated_at: Date;
  unlisted_at: Date | null;
}

export const VOLUME_LISTING_COLUMNS = `id, owner_id, team_id, machine_id, size_gb, price_per_gb_month,
  status, active_rentals, created_at, updated_at, unlisted_at`;

export function toVolumeListing(row: VolumeListingRow): VolumeListing {
  return {
    id: row.id,
    ownerId: row.owner_id,
    teamId: row.team_id,
    machineId: row.machine_id,
    sizeGb: row.size_gb,
    pricePerGbMonth: row.price_per_gb_month,
    status: row.status,
    activeRentals: row.active_rentals,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    unlistedAt: row.unlisted_at,
  };
}

export interface AuditRow {
  listing_id: number;
  actor_user_id: number;
  action: 'unlist';
  previous_status: ListingStatus;
  new_status: ListingStatus;
  occurred_at: Date;
}

export function toAuditEntry(row: AuditRow): ListingAuditEntry {
  return {
    listingId: row.listing_id,
    actorUserId: row.actor_user_id,
    action: row.action,
    previousStatus: row.previous_status,
    newStatus: row.new_status,
    occurredAt: row.occurred_at,
  };
}
