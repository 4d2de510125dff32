import { AsyncLocalStorage } from 'node:async_hooks';
import { Pool, PoolClient } from 'pg';
import {
  LagTolerantReads,
  ReplicaState,
  StatementOptions,
} from '../../application/ports/lag-tolerant-reads.port';
import { statementConfig, TransactionalEntityManager } from './transactional-entity-manager';

/** How long a measured replica state is trusted before it is measured again. */
const STATE_TTL_MS = 1_000;
/** The replica must answer quickly; a slow one is treated as down for this request. */
const REPLICA_TIMEOUT_MS = 2_000;

/*
 * Replay lag in seconds. A standby that has replayed all it received is current (an idle
 * primary sends nothing, so the age of the last replayed transaction would overstate it).
 */
const LAG_SQL = `
SELECT pg_is_in_recovery() AS standby,
       CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
            ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 0)
       END::float8 AS lag`;

/*
 * True when the current snapshot here sees every transaction that $1 sees: its xmax is not
 * lower, and none of the transactions it still has in progress is one $1 counts as done.
 * Transaction ids are the same on a physical replica as on its primary.
 */
const SEES_SNAPSHOT_SQL = `
SELECT pg_snapshot_xmax(pg_current_snapshot()) >= pg_snapshot_xmax($1::pg_snapshot)
       AND NOT EXISTS (SELECT 1 FROM pg_snapshot_xip(pg_current_snapshot()) x
                        WHERE pg_visible_in_snapshot(x, $1::pg_snapshot)) AS sees`;

type Runner = (text: string, values: unknown[], options: StatementOptions) => Promise<unknown[]>;

/** Lag-tolerant reads on the primary only: the setting without DATABASE_REPLICA_URL. */
export class PrimaryOnlyReads extends LagTolerantReads {
  constructor(private readonly primary: TransactionalEntityManager) {
    super();
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }

  rows<Row>(
    sql: string,
    params: readonly unknown[] = [],
    options: StatementOptions = {},
  ): Promise<Row[]> {
    return this.primary.rows<Row>(sql, params, options);
  }

  async replicaState(): Promise<ReplicaState> {
    return { status: 'none' };
  }
}

/**
 * Lag-tolerant reads on a streaming replica, falling back to the primary when the
 * replica is down, lags more than `maxLagSeconds`, has not yet replayed what a snapshot
 * requires, or fails in the middle of a run (reads are safe to run again).
 */
export class ReplicaReads extends LagTolerantReads {
  private readonly pool: Pool;
  private readonly current = new AsyncLocalStorage<Runner>();
  private state: ReplicaState = { status: 'down', message: 'not checked yet' };
  private measuredAt = 0;
  private measuring: Promise<ReplicaState> | null = null;
  /** How many runs each node served (for /metrics and the operator). */
  readonly served = { replica: 0, primary: 0 };

  constructor(
    replicaUrl: string,
    private readonly primary: TransactionalEntityManager,
    private readonly maxLagSeconds: number,
    poolMax: number,
  ) {
    super();
    this.pool = new Pool({
      connectionString: replicaUrl,
      max: poolMax,
      connectionTimeoutMillis: REPLICA_TIMEOUT_MS,
      idleTimeoutMillis: 30_000,
      statement_timeout: 30_000,
      application_name: 'gpumarket-replica-reads',
    });
    // A replica going away mid-idle must not crash the process; queries report it.
    this.pool.on('error', () => undefined);
    this.pool.on('connect', (client) => client.on('error', () => undefined));
  }

  async run<T>(work: () => Promise<T>, options: { mustSee?: string } = {}): Promise<T> {
    if (this.current.getStore()) return work();
    const state = await this.replicaState();
    if (state.status === 'up') {
      const client = await this.pool.connect().catch((error: unknown) => {
        this.markDown(error);
        return null;
      });
      if (client) {
        let broken = false;
        try {
          // One snapshot for the whole run: its statements agree with each other.
          await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
          const sees = options.mustSee
            ? (await client.query<{ sees: boolean }>(SEES_SNAPSHOT_SQL, [options.mustSee])).rows[0]
                .sees
            : true;
          if (sees) {
            const prepared = this.primary.preparedStatements;
            const result = await this.current.run(
              async (text, values, statement) =>
                (await client.query(statementConfig(text, values, !!statement.prepare && prepared)))
                  .rows,
              work,
            );
            await client.query('COMMIT');
            this.served.replica += 1;
            return result;
          }
          await client.query('ROLLBACK');
        } catch (error) {
          broken = await this.replicaFailed(client, error);
          if (!broken) throw error;
        } finally {
          client.release(broken);
        }
      }
    }
    this.served.primary += 1;
    return this.current.run(
      (text, values, statement) => this.primary.rows<unknown>(text, values, statement),
      work,
    );
  }

  async rows<Row>(
    sql: string,
    params: readonly unknown[] = [],
    options: StatementOptions = {},
  ): Promise<Row[]> {
    const runner = this.current.getStore();
    if (runner) return (await runner(sql, [...params], options)) as Row[];
    return this.primary.rows<Row>(sql, params, options);
  }

  /** Measured at most once a second, however many requests ask. */
  async replicaState(): Promise<ReplicaState> {
    if (Date.now() - this.measuredAt < STATE_TTL_MS) return this.state;
    this.measuring ??= this.measure().finally(() => {
      this.measuring = null;
    });
    return this.measuring;
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }

  private async measure(): Promise<ReplicaState> {
    try {
      const { rows } = await withTimeout(
        this.pool.query<{ standby: boolean; lag: number }>(LAG_SQL),
        REPLICA_TIMEOUT_MS,
      );
      const [{ standby, lag }] = rows;
      const lagSeconds = Math.round(lag * 1000) / 1000;
      this.state = !standby
        ? { status: 'down', message: 'DATABASE_REPLICA_URL is not a standby' }
        : lag > this.maxLagSeconds
          ? { status: 'lagging', lagSeconds, message: `lag above ${this.maxLagSeconds} s` }
          : { status: 'up', lagSeconds };
    } catch (error) {
      this.state = { status: 'down', message: (error as Error).message };
    }
    this.measuredAt = Date.now();
    return this.state;
  }

  /**
   * Whether an error in a run is the replica's doing (it went away, cancelled the query
   * for a conflict with replay, timed out): then the run is repeated on the primary.
   * Any other error (the caller's own) is the caller's, and is rethrown.
   */
  private async replicaFailed(client: PoolClient, error: unknown): Promise<boolean> {
    const code = (error as { code?: string })?.code ?? '';
    const replicaSide = /^(08|57|53|58|XX|40001)/.test(code);
    const rolledBack = await client.query('ROLLBACK').then(
      () => true,
      () => false,
    );
    if (rolledBack && !replicaSide) return false;
    this.markDown(error);
    return true;
  }

  private markDown(error: unknown): void {
    this.state = { status: 'down', message: (error as Error)?.message ?? String(error) };
    this.measuredAt = Date.now();
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`replica did not answer in ${ms} ms`)), ms);
      timer.unref();
    }),
  ]).finally(() => clearTimeout(timer));
}
