import {
  InMemoryVolumeListingAuditLog,
  InMemoryVolumeListingRepository,
} from './in-memory-volume-listings';
import { volumeListingStoresContract } from './volume-listing-stores.contract';

describe('in-memory volume listing stores', () => {
  volumeListingStoresContract(async () => ({
    listings: new InMemoryVolumeListingRepository(() => new Date()),
    audit: new InMemoryVolumeListingAuditLog(),
    inUnitOfWork: (work) => work(),
    ownerId: 1,
    firstId: 39_910,
  }));
});
