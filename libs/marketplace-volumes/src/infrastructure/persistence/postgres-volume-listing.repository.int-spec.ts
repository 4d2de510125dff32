import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, TransactionalEntityManager, TypeormUnitOfWork } from '@app/platform';
import { ManualClock } from '@app/platform/testing';
import { UnlistVolumeUseCase } from '../../application/unlist-volume.use-case';
import {
  ListingAuditEntry,
  VolumeListingAuditLog,
} from '../../application/ports/volume-listing-audit-log.port';
import { volumeListingStoresContract } from '../../testing/volume-listing-stores.contract';
import { PostgresVolumeListingAuditLog } from './postgres-volume-listing-audit-log';
import { PostgresVolumeListingRepository } from './postgres-volume-listing.repository';

// Listing ids owned by this file (the volumes range is 30000-39999; 39000-39899 belong to
// test/hardening-races.e2e-spec.ts).
const IDS = { racing: 39901, rollback: 39902, upsert: 39903, interleaved: 39904 };
/** The contract suite's listings: 39911-39920. */
const CONTRACT_FIRST_ID = 39910;
const CONTRACT_IDS = Array.from({ length: 10 }, (_, i) => CONTRACT_FIRST_ID + 1 + i);

describe('volume listing persistence (real PostgreSQL)', () => {
  let dataSource: DataSource;
  let tx: TransactionalEntityManager;
  let listings: PostgresVolumeListingRepository;
  let audit: PostgresVolumeListingAuditLog;
  let ownerId: number;

  const useCase = (log: VolumeListingAuditLog = audit) =>
    new UnlistVolumeUseCase(listings, log, new TypeormUnitOfWork(tx), new ManualClock());

  const seed = (id: number) =>
    listings.upsert({
      id,
      ownerId,
      machineId: 5,
      sizeGb: 200,
      pricePerGbMonth: '0.12',
      status: 'listed',
      activeRentals: 0,
    });

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    tx = new TransactionalEntityManager(dataSource);
    listings = new PostgresVolumeListingRepository(tx);
    audit = new PostgresVolumeListingAuditLog(tx);
    const [user] = await dataSource.query(`INSERT INTO users (email) VALUES ($1) RETURNING id`, [
      `volumes-int-${randomUUID()}@example.test`,
    ]);
    ownerId = user.id;
    await dataSource.query(`DELETE FROM volume_listing_audit WHERE listing_id = ANY($1)`, [
      [...Object.values(IDS), ...CONTRACT_IDS],
    ]);
  });

  // The user's listings go with it (ON DELETE CASCADE); audit rows name no foreign key.
  afterAll(async () => {
    await dataSource.query(`DELETE FROM volume_listing_audit WHERE listing_id = ANY($1)`, [
      [...Object.values(IDS), ...CONTRACT_IDS],
    ]);
    await dataSource.query(`DELETE FROM users WHERE id = $1`, [ownerId]);
    await dataSource.destroy();
  });

  describe('the stores contract', () => {
    volumeListingStoresContract(async () => ({
      listings,
      audit,
      inUnitOfWork: (work) => tx.transaction(work),
      ownerId,
      firstId: CONTRACT_FIRST_ID,
    }));
  });

  it('serialises concurrent unlists of one listing: one change, one consistent state', async () => {
    await seed(IDS.racing);
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () =>
        useCase().execute({ listingId: IDS.racing, actorUserId: ownerId }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === 'unlisted')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'already_unlisted')).toHaveLength(4);
    const entries = await audit.entriesFor(IDS.racing);
    expect(entries.map((entry) => entry.previousStatus).sort()).toEqual([
      'listed',
      'unlisted',
      'unlisted',
      'unlisted',
      'unlisted',
    ]);
    const [row] = await dataSource.query(
      `SELECT status, unlisted_at FROM volume_listings WHERE id = $1`,
      [IDS.racing],
    );
    expect(row.status).toBe('unlisted');
    expect(row.unlisted_at).toBeInstanceOf(Date);
  });

  it('makes a second unlist wait for the first and see its result', async () => {
    await seed(IDS.interleaved);
    // The first unlist stops just before committing, holding its row lock.
    let release!: () => void;
    let reached!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const holdingLock = new Promise<void>((resolve) => (reached = resolve));
    class GatedAuditLog extends VolumeListingAuditLog {
      async record(entry: ListingAuditEntry): Promise<void> {
        await audit.record(entry);
        reached();
        await gate;
      }
      async entriesFor(listingId: number): Promise<ListingAuditEntry[]> {
        return audit.entriesFor(listingId);
      }
    }
    const first = useCase(new GatedAuditLog()).execute({
      listingId: IDS.interleaved,
      actorUserId: ownerId,
    });
    await holdingLock;
    const waitingOnLock = async () =>
      Number(
        (
          await dataSource.query(
            `SELECT count(*) AS n FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock'
                AND query LIKE '%volume_listings%'`,
          )
        )[0].n,
      );
    const second = useCase().execute({ listingId: IDS.interleaved, actorUserId: ownerId });
    // Without the row lock the second would read the committed 'listed' and unlist again.
    for (let polls = 0; (await waitingOnLock()) === 0 && polls < 10_000; polls += 1);
    release();
    expect(await first).toBe('unlisted');
    expect(await second).toBe('already_unlisted');
  });

  it('rolls the status back when the audit entry cannot be written', async () => {
    await seed(IDS.rollback);
    class FailingAuditLog extends VolumeListingAuditLog {
      async record(): Promise<void> {
        throw new Error('audit store down');
      }
      async entriesFor(): Promise<ListingAuditEntry[]> {
        return [];
      }
    }
    await expect(
      useCase(new FailingAuditLog()).execute({ listingId: IDS.rollback, actorUserId: ownerId }),
    ).rejects.toThrow('audit store down');
    const [row] = await dataSource.query(`SELECT status FROM volume_listings WHERE id = $1`, [
      IDS.rollback,
    ]);
    expect(row.status).toBe('listed');
  });

  it('upserts fixtures on their explicit id and finds nothing beyond the id range', async () => {
    await seed(IDS.upsert);
    await listings.upsert({
      id: IDS.upsert,
      ownerId,
      machineId: 6,
      sizeGb: 20,
      pricePerGbMonth: '0.5',
      status: 'unlisted',
      activeRentals: 3,
    });
    const found = await tx.transaction(() => listings.findByIdForUpdate(IDS.upsert));
    expect(found).toMatchObject({
      id: IDS.upsert,
      ownerId,
      machineId: 6,
      sizeGb: 20,
      pricePerGbMonth: '0.500000',
      status: 'unlisted',
      activeRentals: 3,
    });
    expect(found!.unlistedAt).toBeInstanceOf(Date);
    // Reloading the same fixture keeps the time the listing was unlisted; relisting clears it.
    const reload = {
      id: IDS.upsert,
      ownerId,
      machineId: 6,
      sizeGb: 20,
      pricePerGbMonth: '0.5',
      activeRentals: 3,
    };
    await listings.upsert({ ...reload, status: 'unlisted' });
    const reloaded = await tx.transaction(() => listings.findByIdForUpdate(IDS.upsert));
    expect(reloaded!.unlistedAt).toEqual(found!.unlistedAt);
    await listings.upsert({ ...reload, status: 'listed' });
    const relisted = await tx.transaction(() => listings.findByIdForUpdate(IDS.upsert));
    expect(relisted).toMatchObject({ status: 'listed', unlistedAt: null });
    expect(await listings.findByIdForUpdate(2 ** 31)).toBeNull();
    expect(await listings.findByIdForUpdate(Number.MAX_SAFE_INTEGER + 2)).toBeNull();
  });
});
