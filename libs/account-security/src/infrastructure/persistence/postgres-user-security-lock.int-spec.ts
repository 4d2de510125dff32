import { DataSource } from 'typeorm';
import { dataSourceOptions, TransactionalEntityManager, TypeormUnitOfWork } from '@app/platform';
import { userSecurityLockContract } from '../../testing/user-security-lock.contract';
import { PostgresUserSecurityLock } from './postgres-user-security-lock';

describe('PostgresUserSecurityLock (real PostgreSQL)', () => {
  let dataSource: DataSource;
  let lock: PostgresUserSecurityLock;
  let uow: TypeormUnitOfWork;

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    const tx = new TransactionalEntityManager(dataSource);
    lock = new PostgresUserSecurityLock(tx);
    uow = new TypeormUnitOfWork(tx);
  });
  afterAll(() => dataSource.destroy());

  userSecurityLockContract('PostgresUserSecurityLock', () => ({ lock, unitOfWork: uow }));

  /** Transactions waiting for the advisory lock of this user (pg_locks: key2 is objid). */
  const waitingFor = async (userId: number): Promise<number> =>
    Number(
      (
        await dataSource.query(
          `SELECT count(*) AS n FROM pg_locks
            WHERE locktype = 'advisory' AND NOT granted AND objid = $1 AND objsubid = 2`,
          [userId],
        )
      )[0].n,
    );

  it("makes a second transaction of the same user wait until the first ends, not another user's", async () => {
    const order: string[] = [];
    let releaseFirst!: () => void;
    const firstHolds = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstLocked!: () => void;
    const locked = new Promise<void>((resolve) => (firstLocked = resolve));
    const first = uow.run(async () => {
      await lock.lock(901);
      firstLocked();
      await firstHolds;
      order.push('first ends');
    });
    await locked;
    await uow.run(async () => {
      await lock.lock(902);
      order.push('other user');
    });
    const second = uow.run(async () => {
      await lock.lock(901);
      order.push('second');
    });
    // Seen waiting by PostgreSQL itself before the first is let go.
    while ((await waitingFor(901)) === 0) await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['other user']);
    releaseFirst();
    await Promise.all([first, second]);
    expect(order).toEqual(['other user', 'first ends', 'second']);
  });
});
