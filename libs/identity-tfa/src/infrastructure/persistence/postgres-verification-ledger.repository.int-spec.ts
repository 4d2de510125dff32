import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, TransactionalEntityManager, TypeormUnitOfWork } from '@app/platform';
import { emptyLedger, recordFailure } from '../../domain/verification-failures';
import { PostgresVerificationLedgerRepository } from './postgres-verification-ledger.repository';

describe('PostgresVerificationLedgerRepository (real PostgreSQL)', () => {
  let dataSource: DataSource;
  let ledger: PostgresVerificationLedgerRepository;
  let uow: TypeormUnitOfWork;
  const users: number[] = [];

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    const tx = new TransactionalEntityManager(dataSource);
    ledger = new PostgresVerificationLedgerRepository(tx);
    uow = new TypeormUnitOfWork(tx);
  });
  afterAll(async () => {
    await dataSource.query(`DELETE FROM users WHERE id = ANY($1)`, [users]);
    await dataSource.destroy();
  });

  async function newUser(): Promise<number> {
    const rows = await dataSource.query(`INSERT INTO users (email) VALUES ($1) RETURNING id`, [
      `ledger-${randomUUID()}@example.test`,
    ]);
    users.push(rows[0].id);
    return rows[0].id;
  }

  it('saves and loads failures, locks and the user-wide lock', async () => {
    const userId = await newUser();
    const now = Date.UTC(2026, 0, 1);
    let state = emptyLedger();
    for (let i = 0; i < 5; i += 1) state = recordFailure(state, 'email', now + i).ledger;
    state.userLockedUntilMs = now + 60_000;
    await uow.run(() => ledger.save(userId, state));
    expect(await ledger.load(userId)).toEqual(state);
  });

  it('refuses to lock outside a unit of work', async () => {
    await expect(ledger.lockAndLoad(await newUser())).rejects.toThrow(/unit of work/);
  });

  it("serialises one user's transactions: 20 parallel read-modify-writes lose no update", async () => {
    const userId = await newUser();
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

  it('a challenge is spent once; a rolled-back spend leaves it unspent', async () => {
    const userId = await newUser();
    const id = randomUUID();
    await expect(
      uow.run(async () => {
        expect(await ledger.markChallengeSpent(id, userId, new Date())).toBe(true);
        throw new Error('the action failed');
      }),
    ).rejects.toThrow('the action failed');
    expect(await ledger.isChallengeSpent(id)).toBe(false);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        uow.run(() => ledger.markChallengeSpent(id, userId, new Date())),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await ledger.isChallengeSpent(id)).toBe(true);
  });
});
