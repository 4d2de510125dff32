import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { inRequestScope, oweWrite } from '../request-scope';
import { dataSourceOptions, runMigrations } from './database-setup';
import {
  statementName,
  TransactionalEntityManager,
  TypeormUnitOfWork,
} from './transactional-entity-manager';

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

  describe('a write the request owes (its audit entry)', () => {
    /** Runs `work` as a request's handling, owing an INSERT of a team named `owed`. */
    const asRequest = (owed: string, work: () => Promise<void>) =>
      new Promise<{ settled: boolean }>((resolve, reject) =>
        inRequestScope(() => {
          const debt = oweWrite(async () => {
            await manager.rows(`INSERT INTO teams (name) VALUES ($1)`, [owed]);
          })!;
          work().then(() => resolve(debt), reject);
        }),
      );

    it('is written by the first transaction, in its commit, and only once', async () => {
      const [owed, change] = [`owed-${randomUUID()}`, `change-${randomUUID()}`];
      const debt = await asRequest(owed, async () => {
        await unitOfWork.run(() => manager.rows(`INSERT INTO teams (name) VALUES ($1)`, [change]));
        await unitOfWork.run(() => manager.rows(`INSERT INTO teams (name) VALUES ($1)`, [change]));
      });
      expect(debt.settled).toBe(true);
      expect([await countTeams(owed), await countTeams(change)]).toEqual([1, 2]);
    });

    it('rolls back with a failed transaction and stays owed to the next one', async () => {
      const owed = `owed-${randomUUID()}`;
      const debt = await asRequest(owed, async () => {
        await expect(
          unitOfWork.run(async () => {
            throw new Error('refused');
          }),
        ).rejects.toThrow('refused');
        expect(await countTeams(owed)).toBe(0);
      });
      expect(debt.settled).toBe(false);
      expect(await countTeams(owed)).toBe(0);
    });

    it('fails the transaction when it cannot be written: no change without it', async () => {
      const change = `change-${randomUUID()}`;
      await expect(
        new Promise((resolve, reject) =>
          inRequestScope(() => {
            oweWrite(() => Promise.reject(new Error('audit refused')));
            unitOfWork
              .run(() => manager.rows(`INSERT INTO teams (name) VALUES ($1)`, [change]))
              .then(resolve, reject);
          }),
        ),
      ).rejects.toThrow('audit refused');
      expect(await countTeams(change)).toBe(0);
    });
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

  it('runs afterCommit effects once the unit committed, never when it rolls back', async () => {
    const name = `uow-${randomUUID()}`;
    const seen: number[] = [];
    const effect = () => {
      // Another connection: the effect must only run when the write is visible to others.
      void countTeams(name).then((n) => seen.push(n));
    };
    try {
      await unitOfWork.run(async () => {
        await manager.manager.query(`INSERT INTO teams (name) VALUES ($1)`, [name]);
        manager.afterCommit(effect);
        expect(seen).toEqual([]);
      });
      await expect(
        unitOfWork.run(async () => {
          manager.afterCommit(() => seen.push(-1));
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      // Outside a unit the effect runs at once.
      manager.afterCommit(() => seen.push(0));
      while (seen.length < 2) await new Promise((resolve) => setImmediate(resolve));
      expect(seen.sort()).toEqual([0, 1]);
    } finally {
      await dataSource.query(`DELETE FROM teams WHERE name = $1`, [name]);
    }
  });

  it('runs an afterCommitOnce effect once per key and transaction, at once outside one', async () => {
    const seen: string[] = [];
    await unitOfWork.run(async () => {
      for (const owner of ['a', 'b', 'a', 'a', 'b'])
        manager.afterCommitOnce(`owner:${owner}`, () => seen.push(owner));
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual(['a', 'b']);
    // A new transaction starts with no key taken; one that rolls back runs nothing.
    await unitOfWork.run(async () => manager.afterCommitOnce('owner:a', () => seen.push('a2')));
    await expect(
      unitOfWork.run(async () => {
        manager.afterCommitOnce('owner:a', () => seen.push('rolled back'));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    manager.afterCommitOnce('owner:a', () => seen.push('outside'));
    manager.afterCommitOnce('owner:a', () => seen.push('outside'));
    expect(seen).toEqual(['a', 'b', 'a2', 'outside', 'outside']);
  });

  it('resolves the unit of work only once its asynchronous after-commit effects have', async () => {
    const seen: string[] = [];
    await unitOfWork.run(async () => {
      unitOfWork.afterCommit(async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        seen.push('effect');
      });
      seen.push('work');
    });
    seen.push('resolved');
    expect(seen).toEqual(['work', 'effect', 'resolved']);
  });

  it('applies migrations once even when several runners start together', async () => {
    const results = await Promise.all([
      runMigrations(dataSource),
      runMigrations(dataSource),
      runMigrations(dataSource),
    ]);
    expect(results.flat()).toEqual([]);
  });

  describe('statements run with { prepare: true }', () => {
    const sql = `SELECT $1::int + 1 AS n, 'prepared-statement-test' AS tag`;
    /** Whether this connection holds the statement prepared under its digest name. */
    const preparedHere = (tx: TransactionalEntityManager) =>
      tx.rows<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name = $1`,
        [statementName(sql)],
      );

    it('are named statements, prepared on the connection, with DATABASE_PREPARED_STATEMENTS', async () => {
      const prepared = new TransactionalEntityManager(dataSource, { preparedStatements: true });
      await prepared.transaction(async () => {
        expect(await prepared.rows(sql, [41], { prepare: true })).toEqual([
          { n: 42, tag: 'prepared-statement-test' },
        ]);
        expect(await preparedHere(prepared)).toEqual([{ n: 1 }]);
      });
      // Outside a transaction, on a pooled connection, with the same answers and errors.
      expect(await prepared.rows(sql, [1], { prepare: true })).toEqual([
        { n: 2, tag: 'prepared-statement-test' },
      ]);
      await expect(prepared.rows(sql, ['x'], { prepare: true })).rejects.toThrow(
        /invalid input syntax/,
      );
    });

    it('are plain statements without it', async () => {
      const plain = new TransactionalEntityManager(dataSource);
      await plain.transaction(async () => {
        expect(await plain.rows(sql, [41], { prepare: true })).toEqual([
          { n: 42, tag: 'prepared-statement-test' },
        ]);
        expect(await preparedHere(plain)).toEqual([{ n: 0 }]);
      });
    });

    it('turn plain for good when a pooler turns out not to carry them, the read answered', async () => {
      // One connection, on which the name is taken behind the client's back, as a
      // transaction pooler does when another client prepared it on that server connection.
      const single = await new DataSource(
        dataSourceOptions(process.env.DATABASE_URL!, { poolMax: 1 }),
      ).initialize();
      try {
        await single.query(
          `PREPARE ${statementName(sql)}(int) AS SELECT $1::int + 1 AS n, 'prepared-statement-test' AS tag`,
        );
        const pooled = new TransactionalEntityManager(single, { preparedStatements: true });
        expect(await pooled.rows(sql, [41], { prepare: true })).toEqual([
          { n: 42, tag: 'prepared-statement-test' },
        ]);
        expect(pooled.preparedStatements).toBe(false);
        expect(await pooled.rows(sql, [1], { prepare: true })).toEqual([
          { n: 2, tag: 'prepared-statement-test' },
        ]);
      } finally {
        await single.destroy();
      }
    });

    it('name a text by its digest: one name per text', () => {
      expect(statementName(sql)).toBe(statementName(sql));
      expect(statementName(sql)).not.toBe(statementName(`${sql} `));
    });
  });
});
