import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from './database-setup';
import { TransactionalEntityManager, TypeormUnitOfWork } from './transactional-entity-manager';

describe('TypeormUnitOfWork (real PostgreSQL)', () => {
  let dataSource: DataSource;
  let manager: TransactionalEntityManager;
  let unitOfWork: TypeormUnitOfWork;

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    manager = new TransactionalEntityManager(dataSource);
    unitOfWork = new TypeormUnitOfWork(manager);
  });

  afterAll(() => dataSource.destroy());

  const countTeams = async (name: string) =>
    Number(
      (await dataSource.query(`SELECT count(*) AS n FROM teams WHERE name = $1`, [name]))[0].n,
    );

  it('commits every statement of the unit together', async () => {
    const name = `uow-${randomUUID()}`;
    await unitOfWork.run(async () => {
      await manager.manager.query(`INSERT INTO teams (name) VALUES ($1)`, [name]);
      await manager.manager.query(`INSERT INTO teams (name) VALUES ($1)`, [name]);
    });
    expect(await countTeams(name)).toBe(2);
  });

  it('rolls back everything when the unit fails half-way', async () => {
    const name = `uow-${randomUUID()}`;
    await expect(
      unitOfWork.run(async () => {
        await manager.manager.query(`INSERT INTO teams (name) VALUES ($1)`, [name]);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await countTeams(name)).toBe(0);
  });

  it('joins an outer unit instead of nesting a second transaction', async () => {
    const name = `uow-${randomUUID()}`;
    await expect(
      unitOfWork.run(async () => {
        await unitOfWork.run(() =>
          manager.manager.query(`INSERT INTO teams (name) VALUES ($1)`, [name]),
        );
        throw new Error('outer fails');
      }),
    ).rejects.toThrow('outer fails');
    expect(await countTeams(name)).toBe(0);
  });

  it('applies migrations once even when several runners start together', async () => {
    const results = await Promise.all([
      runMigrations(dataSource),
      runMigrations(dataSource),
      runMigrations(dataSource),
    ]);
    expect(results.flat()).toEqual([]);
  });
});
