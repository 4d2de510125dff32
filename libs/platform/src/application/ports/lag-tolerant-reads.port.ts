/** What readiness reports about the read replica (it never fails readiness). */
export interface ReplicaState {
  /** `none`: no DATABASE_REPLICA_URL; `lagging`: up but further behind than allowed. */
  status: 'none' | 'up' | 'lagging' | 'down';
  /** Seconds of replay lag last measured, when the replica answered. */
  lagSeconds?: number;
  /** Why the replica is not used, when it is not. */
  message?: string;
}

/** How one statement is run. */
export interface StatementOptions {
  /**
   * Run often with the same text: run it as a named statement (prepared once per
   * connection, planned generically after a few runs) where DATABASE_PREPARED_STATEMENTS
   * allows, else as usual.
   */
  prepare?: boolean;
}

/**
 * Reads that tolerate some lag (docs/operations.md "Read replica"): a unit of such reads
 * runs on the PostgreSQL streaming replica when one is configured, reachable and close
 * enough, and otherwise on the primary. A unit runs in one snapshot on one node, so its
 * statements agree with each other; a failure on the replica re-runs it on the primary.
 * Anything that writes, or must see its own writes, does not belong here.
 */
export abstract class LagTolerantReads {
  /**
   * Runs `work`, whose statements go through rows(). With `mustSee`, a pg_snapshot made
   * earlier on either node, the replica is used only when it has replayed every
   * transaction that snapshot sees (so a page walk never misses a row it counted).
   */
  abstract run<T>(work: () => Promise<T>, options?: { mustSee?: string }): Promise<T>;

  /**
   * The rows of one statement of the current run() (on the primary outside any run): the
   * lag-tolerant counterpart of TransactionalEntityManager.rows.
   */
  abstract rows<Row>(
    sql: string,
    params?: readonly unknown[],
    options?: StatementOptions,
  ): Promise<Row[]>;

  abstract replicaState(): Promise<ReplicaState>;
}
