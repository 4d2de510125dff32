import { thrownBy } from '@app/platform/testing';
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

describe('decideUnlist', () => {
  it('unlists a listed, idle listing of the caller', () => {
    expect(decideUnlist(listing(), 1)).toEqual({ outcome: 'unlisted', previousStatus: 'listed' });
  });

  it("a team's listing is its members' in the team's context, nobody's in a personal one", () => {
    const teams = listing({ ownerId: 1, teamId: 50 });
    expect(decideUnlist(teams, 2, 50).outcome).toBe('unlisted');
    expect(thrownBy(() => decideUnlist(teams, 1)).code).toBe('volume_listing_not_found');
    expect(thrownBy(() => decideUnlist(teams, 1, 51)).code).toBe('volume_listing_not_found');
    expect(thrownBy(() => decideUnlist(listing(), 1, 50)).code).toBe('volume_listing_not_found');
  });

  it('answers a missing listing and a foreign one identically', () => {
    const missing = thrownBy(() => decideUnlist(null, 1));
    const foreign = thrownBy(() => decideUnlist(listing({ ownerId: 2 }), 1));
    expect([missing.code, missing.message]).toEqual([foreign.code, foreign.message]);
    expect(missing.message).toBe(UNLIST_MESSAGES.notFound);
    expect(missing.message).toBe('Volume listing does not exist');
  });

  it('refuses a listing that is still rented', () => {
    const error = thrownBy(() => decideUnlist(listing({ activeRentals: 1 }), 1));
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
