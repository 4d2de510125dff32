import { DomainError } from '@app/platform';
import { InlineUnitOfWork, ManualClock } from '@app/platform/testing';
import {
  InMemoryVolumeListingAuditLog,
  InMemoryVolumeListingRepository,
} from '../testing/in-memory-volume-listings';
import { UnlistVolumeUseCase } from './unlist-volume.use-case';

describe('UnlistVolumeUseCase', () => {
  let listings: InMemoryVolumeListingRepository;
  let audit: InMemoryVolumeListingAuditLog;
  let clock: ManualClock;
  let useCase: UnlistVolumeUseCase;

  beforeEach(async () => {
    listings = new InMemoryVolumeListingRepository();
    audit = new InMemoryVolumeListingAuditLog();
    clock = new ManualClock(Date.UTC(2026, 2, 1, 12));
    useCase = new UnlistVolumeUseCase(listings, audit, new InlineUnitOfWork(), clock);
    const base = { ownerId: 1, machineId: 9, sizeGb: 50, pricePerGbMonth: '0.1' };
    await listings.upsert({ ...base, id: 10, status: 'listed', activeRentals: 0 });
    await listings.upsert({ ...base, id: 11, status: 'listed', activeRentals: 2 });
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
