import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, TransactionalEntityManager } from '@app/platform';
import { budgetRepositoryContract } from '../../testing/budget-repository.contract';
import { testBudget } from '../../testing/spend-guards-kit';
import { PostgresBudgetAlertRepository } from './postgres-budget-alert.repository';
import { PostgresBudgetRepository } from './postgres-budget.repository';

describe('budget persistence (real PostgreSQL)', () => {
  let dataSource: DataSource;
  let tx: TransactionalEntityManager;
  let repository: PostgresBudgetRepository;
  let alerts: PostgresBudgetAlertRepository;
  let ownerId: number;
  let strangerId: number;
  let teamId: number;

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    tx = new TransactionalEntityManager(dataSource);
    repository = new PostgresBudgetRepository(tx);
    alerts = new PostgresBudgetAlertRepository(tx);
    const insertUser = async () =>
      (
        await dataSource.query(`INSERT INTO users (email) VALUES ($1) RETURNING id`, [
          `spend-guards-int-${randomUUID()}@example.test`,
        ])
      )[0].id as number;
    ownerId = await insertUser();
    strangerId = await insertUser();
    teamId = (
      await dataSource.query(`INSERT INTO teams (name) VALUES ($1) RETURNING id`, [
        `budgets-int-${randomUUID().slice(0, 8)}`,
      ])
    )[0].id as number;
  });

  // The owners' budgets and alerts go with them (ON DELETE CASCADE).
  afterAll(async () => {
    await dataSource.query(`DELETE FROM users WHERE id = ANY($1)`, [[ownerId, strangerId]]);
    await dataSource.query(`DELETE FROM teams WHERE id = $1`, [teamId]);
    await dataSource.destroy();
  });

  describe('the repository contract', () => {
    budgetRepositoryContract(async () => ({
      repository,
      alerts,
      owner: ownerId,
      stranger: strangerId,
      team: teamId,
    }));
  });

  it('gives one alert row to many evaluators inserting it at once', async () => {
    const budget = await repository.insert(
      testBudget({ owner: { userId: ownerId, teamId: null } }),
    );
    const period = { start: new Date(Date.UTC(2027, 0, 1)), end: new Date(Date.UTC(2027, 1, 1)) };
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        tx.transaction(() =>
          alerts.insertOnce({
            budgetId: budget.id,
            threshold: 100,
            period,
            spent: `${100 + i}.000`,
            amount: '100.000',
            createdAt: new Date(),
          }),
        ),
      ),
    );
    expect(results.filter((alert) => alert !== null)).toHaveLength(1);
  });

  it('refuses in the table what the domain refuses: no owner, or both', async () => {
    for (const owner of [
      { userId: null, teamId: null },
      { userId: ownerId, teamId },
    ])
      await expect(repository.insert(testBudget({ owner }))).rejects.toThrow();
  });
});
