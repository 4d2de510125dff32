import { PostgresUserSecurityLock } from '@app/account-security/testing';
import { DataSource } from 'typeorm';
import { dataSourceOptions, TransactionalEntityManager, TypeormUnitOfWork } from '@app/platform';
import { verificationLedgerContract } from '../../testing/verification-ledger.contract';
import { PostgresVerificationLedgerRepository } from './postgres-verification-ledger.repository';
import { TestUsers } from '@app/accounts/testing';

describe('PostgresVerificationLedgerRepository (real PostgreSQL)', () => {
  let dataSource: DataSource;
  let ledger: PostgresVerificationLedgerRepository;
  let uow: TypeormUnitOfWork;
  let users: TestUsers;

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    const tx = new TransactionalEntityManager(dataSource);
    ledger = new PostgresVerificationLedgerRepository(tx, new PostgresUserSecurityLock(tx));
    uow = new TypeormUnitOfWork(tx);
    users = new TestUsers(dataSource, 'ledger');
  });
  afterAll(async () => {
    await users.removeAll();
    await dataSource.destroy();
  });

  verificationLedgerContract('PostgresVerificationLedgerRepository', () => ({
    ledger,
    unitOfWork: uow,
    newUserId: () => users.create(),
  }));

  it("serialises one user's transactions: 20 parallel read-modify-writes lose no update", async () => {
    const userId = await users.create();
    const now = Date.now();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        uow.run(async () => {
          const current = await ledger.lockAndLoad(userId);
          const entry = current.channels.sms ?? { failuresMs: [], lockedUntilMs: null };
          current.channels.sms = { ...entry, failuresMs: [...entry.failuresMs, now + i] };
          await ledger.save(userId, current);
        }),
      ),
    );
    expect((await ledger.load(userId)).channels.sms!.failuresMs).toHaveLength(20);
  });
});
