import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, TransactionalEntityManager } from '@app/platform';
import { Contract, DailyCharge } from '../domain/contract';
import { StoredContracts } from './billing-builders';
import { PostgresContractRepository } from '../infrastructure/persistence/postgres-contract.repository';
import { ChargesWritten } from '../application/charges-written.service';

/**
 * For the billing adapters' int-specs: the test database with two users of its own and a
 * team of the first, the contracts written as the fixtures loader writes them, and
 * `close()`, which deletes the users (their contracts and charges go with them: ON DELETE
 * CASCADE), then the team, and with each owner its summary rows.
 */
export async function postgresBillingDatabase(label: string) {
  const dataSource = await new DataSource(
    dataSourceOptions(process.env.DATABASE_URL!),
  ).initialize();
  const tx = new TransactionalEntityManager(dataSource);
  const users: number[] = [];
  for (let i = 0; i < 2; i += 1) {
    const [user] = await tx.rows<{ id: number }>(
      `INSERT INTO users (email) VALUES ($1) RETURNING id`,
      [`${label}-${randomUUID()}@example.test`],
    );
    users.push(user.id);
  }
  const [team] = await tx.rows<{ id: number }>(
    `INSERT INTO teams (name) VALUES ($1) RETURNING id`,
    [`${label}-team`],
  );
  await tx.rows(`INSERT INTO team_members (team_id, user_id) VALUES ($1, $2)`, [team.id, users[0]]);
  const contracts = new PostgresContractRepository(tx, new ChargesWritten());
  return {
    dataSource,
    tx,
    main: users[0],
    other: users[1],
    team: team.id,
    store: (contract: Contract, charges: DailyCharge[]) => contracts.replace(contract, charges),
    async close(): Promise<void> {
      await dataSource.query(`DELETE FROM users WHERE id = ANY($1)`, [users]);
      await dataSource.query(`DELETE FROM teams WHERE id = $1`, [team.id]);
      await dataSource.destroy();
    },
  };
}

export type PostgresBillingDatabase = Awaited<ReturnType<typeof postgresBillingDatabase>>;

/**
 * Runs a billing contract suite on PostgreSQL: `adapter` builds the port's adapter over a
 * database of the suite's own (`label` names its users), `firstId` starts the suite's ids.
 */
export function onPostgres<Adapter extends object>(
  label: string,
  firstId: number,
  suite: (setup: () => Promise<StoredContracts & Adapter>) => void,
  adapter: (database: PostgresBillingDatabase) => Adapter,
): void {
  let database: PostgresBillingDatabase;
  suite(async () => {
    database = await postgresBillingDatabase(label);
    const { store, main, other, team } = database;
    return { ...adapter(database), store, main, other, team, firstId };
  });
  afterAll(() => database.close());
}
