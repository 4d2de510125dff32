import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, EntityManager } from 'typeorm';
import { UnitOfWork } from '../../application/ports/unit-of-work.port';

/**
 * Carries the current transaction's EntityManager through async calls, so repositories
 * of any context join the caller's unit of work without passing a handle around.
 */
export class TransactionalEntityManager {
  private readonly storage = new AsyncLocalStorage<EntityManager>();

  constructor(private readonly dataSource: DataSource) {}

  /** The manager of the running transaction, or the pooled one outside a transaction. */
  get manager(): EntityManager {
    return this.storage.getStore() ?? this.dataSource.manager;
  }

  get inTransaction(): boolean {
    return this.storage.getStore() !== undefined;
  }

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.inTransaction) return work();
    return this.dataSource.transaction((manager) => this.storage.run(manager, work));
  }
}

export class TypeormUnitOfWork extends UnitOfWork {
  constructor(private readonly entityManager: TransactionalEntityManager) {
    super();
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.entityManager.transaction(work);
  }
}
