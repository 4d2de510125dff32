import { DomainError } from '@app/platform';
import { testListing, volumesKit, VolumesKit } from '../testing/volumes-kit';

describe('UnlistVolumeUseCase', () => {
  let kit: VolumesKit;
  let listings: VolumesKit['listings'];
  let audit: VolumesKit['audit'];
  let clock: VolumesKit['clock'];
  let useCase: VolumesKit['unlist'];

  beforeEach(async () => {
    kit = volumesKit();
    ({ listings, audit, clock, unlist: useCase } = kit);
    await listings.upsert(testListing(10));
    await listings.upsert(testListing(11, { activeRentals: 2 }));
  });

  it('unlists the listing and audits who did it and when', async () => {
    await expect(useCase.execute({ listingId: 10, actorUserId: 1 })).resolves.toBe('unlisted');
    expect(listings.rows.get(10)).toMatchObject({ status: 'unlisted', unlistedAt: clock.now() });
    expect(audit.entries).toEqual([
      {
        listingId: 10,
        actorUserId: 1,
        action: 'unlist',
        previousStatus: 'listed',
        newStatus: 'unlisted',
        occurredAt: clock.now(),
      },
    ]);
  });

  it('succeeds again on an unlisted listing and audits the repeat', async () => {
    await useCase.execute({ listingId: 10, actorUserId: 1 });
    clock.advance(60_000);
    await expect(useCase.execute({ listingId: 10, actorUserId: 1 })).resolves.toBe(
      'already_unlisted',
    );
    expect(audit.entries.map((entry) => entry.previousStatus)).toEqual(['listed', 'unlisted']);
  });

  it("changes nothing for someone else's listing", async () => {
    await expect(useCase.execute({ listingId: 10, actorUserId: 2 })).rejects.toMatchObject({
      code: 'volume_listing_not_found',
    });
    expect(listings.rows.get(10)?.status).toBe('listed');
    expect(audit.entries).toHaveLength(0);
  });

  it('keeps a rented listing listed', async () => {
    const failure = useCase.execute({ listingId: 11, actorUserId: 1 });
    await expect(failure).rejects.toBeInstanceOf(DomainError);
    await expect(failure).rejects.toMatchObject({ code: 'volume_listing_active' });
    expect(listings.rows.get(11)?.status).toBe('listed');
    expect(audit.entries).toHaveLength(0);
  });
});
