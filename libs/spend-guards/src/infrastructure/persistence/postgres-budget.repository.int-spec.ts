import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, TransactionalEntityManager } from '@app/platform';
import { budgetRepositoryContract } from '../../testing/budget-repository.contract';
import { PostgresBudgetRepository } from './postgres-budget.repository';

describe('budget persistence (real PostgreSQL)', () => {
  let dataSource: DataSource;
  let repository: PostgresBudgetRepository;
  let ownerId: number;
  let strangerId: number;

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    repository = new PostgresBudgetRepository(new TransactionalEntityManager(dataSource));
    const insertUser = async () =>
      (
        await dataSource.query(`INSERT INTO users (email) VALUES ($1) RETURNING id`, [
          `spend-guards-int-${randomUUID()}@example.test`,
        ])
      )[0].id as number;
    ownerId = await insertUser();
    strangerId = await insertUser();
  });

  // The users' budgets go with them (ON DELETE CASCADE).
  afterAll(async () => {
    await dataSource.query(`DELETE FROM users WHERE id = ANY($1)`, [[ownerId, strangerId]]);
    await dataSource.destroy();
  });

  describe('the repository contract', () => {
    budgetRepositoryContract(async () => ({ repository, owner: ownerId, stranger: strangerId }));
  });
});
