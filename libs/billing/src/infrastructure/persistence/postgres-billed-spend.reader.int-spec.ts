import { ChargesWritten } from '../../application/charges-written.service';
import { billedSpendReaderContract } from '../../testing/billed-spend-reader.contract';
import { testCharge, testContract } from '../../testing/billing-builders';
import {
  onPostgres,
  postgresBillingDatabase,
  PostgresBillingDatabase,
} from '../../testing/postgres-billing-database';
import { PostgresBilledSpendReader } from './postgres-billed-spend.reader';
import { PostgresContractRepository } from './postgres-contract.repository';

describe('PostgresBilledSpendReader (real PostgreSQL)', () => {
  // Contract ids owned by this file: 95001-95020 and 95101-95110.
  onPostgres('billing-spend-int', 95_000, billedSpendReaderContract, ({ tx }) => ({
    reader: new PostgresBilledSpendReader(tx),
  }));
});

describe('ChargesWritten on the write path (real PostgreSQL)', () => {
  let database: PostgresBillingDatabase;

  beforeAll(async () => {
    database = await postgresBillingDatabase('billing-written-int');
  });

  afterAll(() => database.close());

  it('announces the owner once the write committed, its charges visible; a failing listener fails nothing', async () => {
    const written = new ChargesWritten();
    const repository = new PostgresContractRepository(database.tx, written);
    const reader = new PostgresBilledSpendReader(database.tx);
    const seen: { ownerKey: number; spent: string; inTransaction: boolean }[] = [];
    written.listen('failing', async () => {
      throw new Error('listener down');
    });
    written.listen('recording', async (ownerKey) => {
      seen.push({
        ownerKey,
        inTransaction: database.tx.inTransaction,
        spent: await reader.billedBetween({ ownerKey, fromDay: 0, toDay: 2 * 86_400 }),
      });
    });
    await repository.replace(
      testContract(95_101, { userId: database.main, teamId: database.team }),
      [testCharge(0, 'gpu', '1', '2.5', '2.5')],
    );
    expect(seen).toEqual([{ ownerKey: -database.team, spent: '2.500', inTransaction: false }]);
  });

  it('announces nothing for a write that rolled back', async () => {
    const written = new ChargesWritten();
    const repository = new PostgresContractRepository(database.tx, written);
    const seen: number[] = [];
    written.listen('recording', async (ownerKey) => void seen.push(ownerKey));
    await expect(
      database.tx.transaction(async () => {
        await repository.replace(testContract(95_102, { userId: database.main }), []);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(seen).toEqual([]);
  });
});
