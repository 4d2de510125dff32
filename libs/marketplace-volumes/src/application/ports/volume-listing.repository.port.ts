import { ListingStatus, VolumeListing } from '../../domain/volume-listing';

export interface VolumeListingSeed {
  id: number;
  ownerId: number;
  /** The team that holds it; null or absent: the owner's own. */
  teamId?: number | null;
  machineId: number;
  sizeGb: number;
  pricePerGbMonth: string;
  status: ListingStatus;
  activeRentals: number;
}

export abstract class VolumeListingRepository {
  /**
   * The listing, row-locked until the surrounding unit of work ends: concurrent unlists
   * (and anything else that locks the listing, such as a new rental) run one after another.
   */
  abstract findByIdForUpdate(id: number): Promise<VolumeListing | null>;

  abstract markUnlisted(id: number, at: Date): Promise<void>;

  /** Creates or replaces a listing with an explicit id (fixtures). */
  abstract upsert(seed: VolumeListingSeed): Promise<void>;
}
