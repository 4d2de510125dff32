import { ListingStatus } from '../../domain/volume-listing';

/** Who did what to a listing, and when. */
export interface ListingAuditEntry {
  listingId: number;
  actorUserId: number;
  action: 'unlist';
  previousStatus: ListingStatus;
  newStatus: ListingStatus;
  occurredAt: Date;
}

export abstract class VolumeListingAuditLog {
  /** Appends an entry; called inside the unit of work that changed the listing. */
  abstract record(entry: ListingAuditEntry): Promise<void>;

  abstract entriesFor(listingId: number): Promise<ListingAuditEntry[]>;
}
