import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, EntityManager } from 'typeorm';
import { UnitOfWork } from '../../application/ports/unit-of-work.port';

interface RunningTransaction {
  manager: EntityManager;
  afterCommit: Array<() => unknown>;
}

/**
 * Carries the current transaction's EntityManager through async calls, so repositories
 * of any context join the caller's unit of work without passing a handle around.
 */
export class TransactionalEntityManager {
  private readonly storage = new AsyncLocalStorage<RunningTransaction>();

  constructor(private readonly dataSource: DataSource) {}

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
  async rows<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    const result = (await this.manager.query(sql, [...params])) as unknown;
    if (/^\s*(UPDATE|DELETE)/i.test(sql) && Array.isArray(result) && Array.isArray(result[0]))
      return result[0] as Row[];
    return result as Row[];
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

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.inTransaction) return work();
    const running: RunningTransaction = { manager: undefined as never, afterCommit: [] };
    const result = await this.dataSource.transaction((manager) => {
      running.manager = manager;
      return this.storage.run(running, work);
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
