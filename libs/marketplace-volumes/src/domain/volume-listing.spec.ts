import { DomainError } from '@app/platform';
import { decideUnlist, UNLIST_MESSAGES, VolumeListing } from './volume-listing';

const listing = (overrides: Partial<VolumeListing> = {}): VolumeListing => ({
  id: 7,
  ownerId: 1,
  machineId: 3,
  sizeGb: 100,
  pricePerGbMonth: '0.15',
  status: 'listed',
  activeRentals: 0,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  unlistedAt: null,
  ...overrides,
});

function errorOf(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError');
}

describe('decideUnlist', () => {
  it('unlists a listed, idle listing of the caller', () => {
    expect(decideUnlist(listing(), 1)).toEqual({ outcome: 'unlisted', previousStatus: 'listed' });
  });

  it('answers a missing listing and a foreign one identically', () => {
    const missing = errorOf(() => decideUnlist(null, 1));
    const foreign = errorOf(() => decideUnlist(listing({ ownerId: 2 }), 1));
    expect([missing.code, missing.message]).toEqual([foreign.code, foreign.message]);
    expect(missing.message).toBe(UNLIST_MESSAGES.notFound);
    expect(missing.message).toBe('Volume listing does not exist');
  });

  it('refuses a listing that is still rented', () => {
    const error = errorOf(() => decideUnlist(listing({ activeRentals: 1 }), 1));
    expect(error.code).toBe('volume_listing_active');
    expect(error.message).toBe('Unable to delete active volume listing');
  });

  it('is idempotent on an already unlisted listing', () => {
    expect(decideUnlist(listing({ status: 'unlisted' }), 1)).toEqual({
      outcome: 'already_unlisted',
      previousStatus: 'unlisted',
    });
  });
});
