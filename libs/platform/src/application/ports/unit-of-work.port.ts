/**
 * Runs work atomically: every repository call made inside `run` joins one database
 * transaction, whichever context the repository belongs to.
 */
export abstract class UnitOfWork {
  abstract run<T>(work: () => Promise<T>): Promise<T>;
}
