import {
  ListingAuditEntry,
  VolumeListingAuditLog,
} from '../application/ports/volume-listing-audit-log.port';
import {
  VolumeListingRepository,
  VolumeListingSeed,
} from '../application/ports/volume-listing.repository.port';

/** What the contract runs against: the two stores, a way to run a unit of work, a user. */
export interface VolumeListingStoresSubject {
  listings: VolumeListingRepository;
  audit: VolumeListingAuditLog;
  /** Runs `work` in one unit of work (findByIdForUpdate locks until it ends). */
  inUnitOfWork<T>(work: () => Promise<T>): Promise<T>;
  ownerId: number;
  /** Listing ids from firstId + 1 to firstId + 10 belong to this suite. */
  firstId: number;
}

/**
 * One suite, run by a unit spec on the in-memory fakes and by an int-spec on PostgreSQL,
 * so the fakes the use-case tests rely on keep to what the real stores do
 * (docs/architecture.md "Where do tests go?").
 */
export function volumeListingStoresContract(
  setup: () => Promise<VolumeListingStoresSubject>,
): void {
  let subject: VolumeListingStoresSubject;
  const id = (n: number) => subject.firstId + n;
  const seed = (n: number, overrides: Partial<VolumeListingSeed> = {}): VolumeListingSeed => ({
    id: id(n),
    ownerId: subject.ownerId,
    machineId: 5,
    sizeGb: 200.5,
    pricePerGbMonth: '0.12',
    status: 'listed',
    activeRentals: 0,
    ...overrides,
  });
  const find = (n: number) => subject.inUnitOfWork(() => subject.listings.findByIdForUpdate(id(n)));

  beforeAll(async () => {
    subject = await setup();
  });

  it('stores a listing on its explicit id; the price reads back as numeric(14, 6) text', async () => {
    await subject.listings.upsert(seed(1, { activeRentals: 2 }));
    const listing = await find(1);
    expect(listing).toMatchObject({
      id: id(1),
      ownerId: subject.ownerId,
      machineId: 5,
      sizeGb: 200.5,
      pricePerGbMonth: '0.120000',
      status: 'listed',
      activeRentals: 2,
      unlistedAt: null,
    });
    expect(listing!.createdAt).toBeInstanceOf(Date);
    expect(listing!.updatedAt).toBeInstanceOf(Date);
  });

  it('finds nothing for an unknown id or one the column cannot hold', async () => {
    for (const missing of [id(9), 2 ** 31, Number.MAX_SAFE_INTEGER + 2, 0, -1]) {
      expect(
        await subject.inUnitOfWork(() => subject.listings.findByIdForUpdate(missing)),
      ).toBeNull();
    }
  });

  it('marks a listing unlisted at the given time', async () => {
    await subject.listings.upsert(seed(2));
    const at = new Date(Date.UTC(2026, 2, 1, 12, 0, 0, 123));
    await subject.inUnitOfWork(() => subject.listings.markUnlisted(id(2), at));
    expect(await find(2)).toMatchObject({ status: 'unlisted', unlistedAt: at, updatedAt: at });
  });

  it('keeps the time a listing was unlisted when it is reloaded, and clears it when relisted', async () => {
    await subject.listings.upsert(seed(3, { status: 'unlisted' }));
    const unlistedAt = (await find(3))!.unlistedAt;
    expect(unlistedAt).toBeInstanceOf(Date);
    await subject.listings.upsert(seed(3, { status: 'unlisted', machineId: 6 }));
    expect(await find(3)).toMatchObject({ machineId: 6, unlistedAt });
    await subject.listings.upsert(seed(3, { status: 'listed' }));
    expect(await find(3)).toMatchObject({ status: 'listed', unlistedAt: null });
  });

  it("keeps a listing's audit entries in the order they were made", async () => {
    const entry = (previousStatus: 'listed' | 'unlisted', minute: number): ListingAuditEntry => ({
      listingId: id(4),
      actorUserId: subject.ownerId,
      action: 'unlist',
      previousStatus,
      newStatus: 'unlisted',
      occurredAt: new Date(Date.UTC(2026, 2, 1, 12, minute)),
    });
    const made = [entry('listed', 5), entry('unlisted', 1), entry('unlisted', 9)];
    for (const one of made) await subject.audit.record(one);
    expect(await subject.audit.entriesFor(id(4))).toEqual(made);
    expect(await subject.audit.entriesFor(id(5))).toEqual([]);
  });
}
