import { Logger } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { Pool, PoolClient, QueryConfig } from 'pg';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { StatementOptions } from '../../application/ports/lag-tolerant-reads.port';
import { UnitOfWork } from '../../application/ports/unit-of-work.port';
import { takeOwedWrite } from '../request-scope';

/** Statement texts named so far; the texts that ask for it are few (one per query shape). */
const NAMES = new Map<string, string>();
const MAX_NAMES = 1_000;

/**
 * A named statement's name: a digest of its text, so one name never stands for two texts
 * on a connection, and every process names a text alike.
 */
export function statementName(sql: string): string {
  let name = NAMES.get(sql);
  if (name === undefined) {
    if (NAMES.size >= MAX_NAMES) NAMES.clear();
    name = `s_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
    NAMES.set(sql, name);
  }
  return name;
}

/** The pg query of one statement, named when `prepare` asks for it and it is allowed. */
export function statementConfig(
  sql: string,
  params: readonly unknown[],
  prepare: boolean,
): QueryConfig {
  return prepare
    ? { name: statementName(sql), text: sql, values: [...params] }
    : { text: sql, values: [...params] };
}

/**
 * duplicate_prepared_statement and invalid_sql_statement_name: the server connection does
 * or does not hold a named statement against what this client recorded for its connection,
 * which only a pooler between them causes (PgBouncer before 1.21 in transaction mode hands
 * each statement another server connection).
 */
const NAMED_STATEMENT_LOST = new Set(['42P05', '26000']);

interface RunningTransaction {
  manager: EntityManager;
  afterCommit: Array<() => unknown>;
  /** The keys of the effects registered with `afterCommitOnce`. */
  onceKeys: Set<string>;
}

/**
 * Carries the current transaction's EntityManager through async calls, so repositories
 * of any context join the caller's unit of work without passing a handle around.
 */
export class TransactionalEntityManager {
  private readonly storage = new AsyncLocalStorage<RunningTransaction>();
  private readonly logger = new Logger('Database');
  private namedStatements: boolean;

  /**
   * With `preparedStatements` (DATABASE_PREPARED_STATEMENTS), statements run with
   * `{ prepare: true }` are named statements, each prepared once per connection.
   */
  constructor(
    private readonly dataSource: DataSource,
    options: { preparedStatements?: boolean } = {},
  ) {
    this.namedStatements = options.preparedStatements === true;
  }

  /** Named statements on; turned off for good if a pooler turns out not to carry them. */
  get preparedStatements(): boolean {
    return this.namedStatements;
  }

  /** The manager of the running transaction, or the pooled one outside a transaction. */
  get manager(): EntityManager {
    return this.storage.getStore()?.manager ?? this.dataSource.manager;
  }

  /**
   * The rows of one SQL statement, run in the current unit of work: the one way the
   * adapters read and write (docs/architecture.md "How do I write SQL?"). TypeORM's postgres
   * driver answers UPDATE and DELETE with [rows, affectedCount] and everything else with
   * rows alone; this always answers the rows (of RETURNING, for a write).
   */
  async rows<Row>(
    sql: string,
    params: readonly unknown[] = [],
    options: StatementOptions = {},
  ): Promise<Row[]> {
    if (options.prepare && this.preparedStatements) return this.named<Row>(sql, params);
    const result = (await this.manager.query(sql, [...params])) as unknown;
    if (/^\s*(UPDATE|DELETE)/i.test(sql) && Array.isArray(result) && Array.isArray(result[0]))
      return result[0] as Row[];
    return result as Row[];
  }

  /**
   * A named statement on the transaction's connection, else on a pooled one: straight on
   * the pg driver under TypeORM (its query() takes text only), with its errors wrapped as
   * TypeORM wraps them.
   */
  private async named<Row>(sql: string, params: readonly unknown[]): Promise<Row[]> {
    const config = statementConfig(sql, params, true);
    const queryRunner = this.storage.getStore()?.manager.queryRunner;
    try {
      if (queryRunner) {
        const client = (await queryRunner.connect()) as PoolClient;
        return (await client.query(config)).rows as Row[];
      }
      const pool = (this.dataSource.driver as PostgresDriver).master as Pool;
      return (await pool.query(config)).rows as Row[];
    } catch (error) {
      if (NAMED_STATEMENT_LOST.has((error as { code?: string }).code ?? '')) {
        if (this.namedStatements) {
          this.namedStatements = false;
          this.logger.warn(
            'Named statements do not survive the connection pooler in front of DATABASE_URL ' +
              '(PgBouncer before 1.21 in transaction mode): plain statements from now on; set ' +
              'DATABASE_PREPARED_STATEMENTS=false (docs/decisions.md "PgBouncer")',
          );
        }
        // Outside a transaction the read simply runs again, unnamed (one sent named before
        // the switch too); a transaction the error aborted fails with it.
        if (!queryRunner) return this.rows<Row>(sql, params);
      }
      throw new QueryFailedError(sql, [...params], error as Error);
    }
  }

  get inTransaction(): boolean {
    return this.storage.getStore() !== undefined;
  }

  /**
   * Runs `effect` once the running transaction has committed (never when it rolls back),
   * or at once outside a transaction: for news other processes must only hear about a
   * change they can already read (a cache invalidation, a queued job). `transaction`
   * resolves once every effect has; errors of `effect` are its own.
   */
  afterCommit(effect: () => unknown): void {
    const running = this.storage.getStore();
    if (running) running.afterCommit.push(effect);
    else effect();
  }

  /**
   * `afterCommit`, once per key and transaction: a second effect of a key already waiting
   * for the commit is dropped. For news about a subject rather than about each change (a
   * fixtures load writing a thousand contracts of one owner tells the owner's listeners
   * once, after its one commit).
   */
  afterCommitOnce(key: string, effect: () => unknown): void {
    const running = this.storage.getStore();
    if (!running) {
      effect();
      return;
    }
    if (running.onceKeys.has(key)) return;
    running.onceKeys.add(key);
    running.afterCommit.push(effect);
  }

  /**
   * Runs `work` in a transaction (joining the running one, if any). The outermost pays,
   * just before it commits, the write its request still owes (request-scope.ts): a
   * request's audit entry commits with its first change, in the same commit.
   */
  async transaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.inTransaction) return work();
    const running: RunningTransaction = {
      manager: undefined as never,
      afterCommit: [],
      onceKeys: new Set(),
    };
    const result = await this.dataSource.transaction((manager) => {
      running.manager = manager;
      return this.storage.run(running, async () => {
        const value = await work();
        const owed = takeOwedWrite();
        if (owed) await owed.write();
        return value;
      });
    });
    for (const effect of running.afterCommit) await effect();
    return result;
  }
}

export class TypeormUnitOfWork extends UnitOfWork {
  constructor(private readonly entityManager: TransactionalEntityManager) {
    super();
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.entityManager.transaction(work);
  }

  afterCommit(effect: () => unknown): void {
    this.entityManager.afterCommit(effect);
  }
}
