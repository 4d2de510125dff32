/**
 * Runs work atomically: every repository call made inside `run` joins one database
 * transaction, whichever context the repository belongs to.
 */
export abstract class UnitOfWork {
  abstract run<T>(work: () => Promise<T>): Promise<T>;

  /**
   * Runs `effect` once the running unit of work has committed, and never when it rolls
   * back (at once outside one): for news that must only leave once the change is durable,
   * such as queueing a job that reads it. The outermost `run` resolves after its effects,
   * which must handle their own errors.
   */
  abstract afterCommit(effect: () => unknown): void;
}
