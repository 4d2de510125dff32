import { InlineUnitOfWork, ManualClock } from '@app/platform/testing';
import { VolumeListingSeed } from '../application/ports/volume-listing.repository.port';
import { UnlistVolumeUseCase } from '../application/unlist-volume.use-case';
import {
  InMemoryVolumeListingAuditLog,
  InMemoryVolumeListingRepository,
} from './in-memory-volume-listings';

/** A listed, unrented 50 GB volume of user 1, unless `fields` say otherwise. */
export function testListing(
  id: number,
  fields: Partial<VolumeListingSeed> = {},
): VolumeListingSeed {
  return {
    id,
    ownerId: 1,
    machineId: 9,
    sizeGb: 50,
    pricePerGbMonth: '0.1',
    status: 'listed',
    activeRentals: 0,
    ...fields,
  };
}

/** The volumes fakes wired together, as the module wires the real adapters. */
export function volumesKit(clock = new ManualClock(Date.UTC(2026, 2, 1, 12))) {
  const listings = new InMemoryVolumeListingRepository(() => clock.now());
  const audit = new InMemoryVolumeListingAuditLog();
  const uow = new InlineUnitOfWork();
  return {
    clock,
    listings,
    audit,
    uow,
    unlist: new UnlistVolumeUseCase(listings, audit, uow, clock),
  };
}

export type VolumesKit = ReturnType<typeof volumesKit>;
