import { AsyncLocalStorage } from 'node:async_hooks';
import { Pool, PoolClient } from 'pg';
import {
  LagTolerantReads,
  ReplicaState,
  StatementOptions,
} from '../../application/ports/lag-tolerant-reads.port';
import { ServerSlots } from './pool-budget';
import { statementConfig, TransactionalEntityManager } from './transactional-entity-manager';

/** How long a measured replica state is trusted before it is measured again. */
const STATE_TTL_MS = 1_000;

/** Where a lag-tolerant read was served; reported as a metric. */
export type ReadNode = 'replica' | 'primary';

/** Told of every lag-tolerant read served (the metrics' counter). */
export type ServedRead = (node: ReadNode) => void;

/*
 * The primary's position now. The write position (not the insert one): a caught-up replica
 * has replayed exactly up to it when the primary is idle, so an idle pair reads as no lag.
 */
const PRIMARY_POSITION_SQL = `SELECT pg_current_wal_lsn()::text AS lsn`;

/*
 * What the replica has replayed, and when the last replayed transaction committed (used
 * only when no recent position of the primary dates the replay, e.g. at the first probe).
 */
const REPLICA_POSITION_SQL = `
SELECT pg_is_in_recovery() AS standby,
       pg_last_wal_replay_lsn()::text AS replayed,
       EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp())::float8 AS replay_age`;

const SLOTS_SQL = `
SELECT current_setting('max_connections')::int AS max,
       current_setting('superuser_reserved_connections')::int
         + coalesce(current_setting('reserved_connections', true)::int, 0) AS reserved`;

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

/** A pg_lsn ('16/B374D848') as a number that compares. */
export function lsnValue(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/** The primary's WAL position at one moment. */
interface PrimaryPosition {
  at: number;
  lsn: bigint;
}

/**
 * How far behind the primary a replica is, in seconds, from the primary's positions
 * sampled over time (oldest first) and what the replica has replayed: the replica has
 * everything the primary had written by the time of the newest position it has replayed,
 * so it lags by at most the time since then (0 when it has the newest). This counts what the
 * replica has not *received* too: a replica whose WAL receiver is cut replays all it got
 * and still falls behind as the primary moves on. With no sampled position replayed, it
 * lags by at least the age of the oldest one, or the age of its last replayed commit.
 */
export function replicaLagSeconds(
  positions: readonly PrimaryPosition[],
  replayed: bigint,
  now: number,
  replayAgeSeconds: number | null,
): number {
  for (let i = positions.length - 1; i >= 0; i -= 1) {
    if (positions[i].lsn <= replayed)
      return i === positions.length - 1 ? 0 : (now - positions[i].at) / 1000;
  }
  const oldest = positions.length > 0 ? (now - positions[0].at) / 1000 : 0;
  return Math.max(oldest, replayAgeSeconds ?? 0);
}

/** Lag-tolerant reads on the primary only: the setting without DATABASE_REPLICA_URL. */
export class PrimaryOnlyReads extends LagTolerantReads {
  constructor(
    private readonly primary: TransactionalEntityManager,
    private readonly served: ServedRead = () => undefined,
  ) {
    super();
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    this.served('primary');
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

export interface ReplicaReadsOptions {
  maxLagSeconds: number;
  poolMax: number;
  /**
   * DATABASE_REPLICA_TIMEOUT_MS: the longest a run may take on the replica, connecting
   * included, before it is abandoned for the primary; the lag probe gets half of it.
   */
  timeoutMs: number;
  /** application_name of the replica connections (pool-budget.ts connectionName). */
  applicationName: string;
  served?: ServedRead;
}

/** A client whose work passed its deadline: its socket was cut. */
class DeadlinePassed extends Error {}

/**
 * Lag-tolerant reads on a streaming replica, falling back to the primary when the
 * replica is down, lags more than `maxLagSeconds` behind the primary, has not yet replayed
 * what a snapshot requires, does not answer within `timeoutMs` (a frozen or stalled
 * server: its connection is cut, never waited on), or fails in the middle of a run (reads
 * are safe to run again).
 */
export class ReplicaReads extends LagTolerantReads {
  private readonly pool: Pool;
  private readonly current = new AsyncLocalStorage<Runner>();
  private state: ReplicaState = { status: 'down', message: 'not checked yet' };
  private measuredAt = 0;
  private measuring: Promise<ReplicaState> | null = null;
  /** The primary's recent positions, oldest first, over a little more than the lag bound. */
  private positions: PrimaryPosition[] = [];
  private readonly served: ServedRead;

  constructor(
    replicaUrl: string,
    private readonly primary: TransactionalEntityManager,
    private readonly options: ReplicaReadsOptions,
  ) {
    super();
    this.served = options.served ?? (() => undefined);
    this.pool = new Pool({
      connectionString: replicaUrl,
      max: options.poolMax,
      // Also the wait for a free replica connection: past it the primary serves.
      connectionTimeoutMillis: options.timeoutMs,
      idleTimeoutMillis: 30_000,
      statement_timeout: 30_000,
      application_name: options.applicationName,
    });
    // A replica going away mid-idle must not crash the process; queries report it.
    this.pool.on('error', () => undefined);
    this.pool.on('connect', (client) => client.on('error', () => undefined));
  }

  /** The replica's pool, for the pool metrics. */
  get replicaPool(): Pool {
    return this.pool;
  }

  async run<T>(work: () => Promise<T>, options: { mustSee?: string } = {}): Promise<T> {
    if (this.current.getStore()) return work();
    const state = await this.replicaState();
    if (state.status === 'up') {
      const onReplica = await this.runOnReplica(work, options.mustSee);
      if (onReplica) {
        this.served('replica');
        return onReplica.result;
      }
    }
    this.served('primary');
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

  /**
   * Measured at most once a second, however many requests ask. A state that sends reads to
   * the replica must be fresh; one that keeps them off it (down, lagging) is used while it
   * is measured again in the background, so a dead or frozen replica never delays a request.
   */
  async replicaState(): Promise<ReplicaState> {
    if (Date.now() - this.measuredAt < STATE_TTL_MS) return this.state;
    const measuring = (this.measuring ??= this.measure().finally(() => {
      this.measuring = null;
    }));
    if (this.measuredAt > 0 && this.state.status !== 'up') return this.state;
    return measuring;
  }

  /** The replica's max_connections and reserved slots, for the start-up budget (null: no answer). */
  async serverSlots(): Promise<ServerSlots | null> {
    try {
      const [row] = await this.withClient(this.options.timeoutMs, (client) =>
        client.query<{ max: number; reserved: number }>(SLOTS_SQL).then((result) => result.rows),
      );
      return { maxConnections: row.max, reserved: row.reserved };
    } catch {
      return null;
    }
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }

  /** The run on the replica, or null when the primary must serve it. */
  private async runOnReplica<T>(
    work: () => Promise<T>,
    mustSee: string | undefined,
  ): Promise<{ result: T } | null> {
    try {
      return await this.withClient(this.options.timeoutMs, async (client) => {
        // One snapshot for the whole run: its statements agree with each other.
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        const sees = mustSee
          ? (await client.query<{ sees: boolean }>(SEES_SNAPSHOT_SQL, [mustSee])).rows[0].sees
          : true;
        if (!sees) {
          await client.query('ROLLBACK');
          return null;
        }
        const prepared = this.primary.preparedStatements;
        const result = await this.current.run(
          async (text, values, statement) =>
            (await client.query(statementConfig(text, values, !!statement.prepare && prepared)))
              .rows,
          work,
        );
        await client.query('COMMIT');
        return { result };
      });
    } catch (error) {
      if (!isReplicaSide(error)) throw error;
      this.markDown(error);
      return null;
    }
  }

  /**
   * Runs `work` on a replica connection within `budgetMs`, connecting included. Past the
   * budget the connection's socket is cut (a frozen server would hold a query for ever, and
   * a statement_timeout never fires on a server that does not run) and the work fails with
   * DeadlinePassed. A connection that failed is discarded, never reused.
   */
  private async withClient<T>(
    budgetMs: number,
    work: (client: PoolClient) => Promise<T>,
  ): Promise<T> {
    const startedAt = Date.now();
    const connecting = this.pool.connect();
    let timer: NodeJS.Timeout | undefined;
    const client = await Promise.race([
      connecting,
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => reject(new DeadlinePassed(`no replica connection within ${budgetMs} ms`)),
          budgetMs,
        );
      }),
    ])
      .catch((error: unknown) => {
        // A connection that arrives after the budget goes back to the pool unused.
        connecting.then(
          (late) => late.release(),
          () => undefined,
        );
        throw error;
      })
      .finally(() => clearTimeout(timer));
    let cut = false;
    const deadline = setTimeout(
      () => {
        cut = true;
        (
          client as unknown as { connection: { stream: { destroy(): void } } }
        ).connection.stream.destroy();
      },
      Math.max(1, budgetMs - (Date.now() - startedAt)),
    );
    let failed: unknown = null;
    try {
      return await work(client);
    } catch (error) {
      failed = error;
      if (cut) throw new DeadlinePassed(`the replica did not answer within ${budgetMs} ms`);
      // The caller's own error: the transaction, if any, is rolled back before reuse.
      if (!isReplicaSide(error)) {
        const rolledBack = await client.query('ROLLBACK').then(
          () => true,
          () => false,
        );
        if (rolledBack) failed = null;
      }
      throw error;
    } finally {
      clearTimeout(deadline);
      client.release(failed ? (failed as Error) : undefined);
    }
  }

  private async measure(): Promise<ReplicaState> {
    const budgetMs = Math.max(25, Math.floor(this.options.timeoutMs / 2));
    try {
      const [position, [replica]] = await Promise.all([
        this.primaryPosition(budgetMs),
        this.withClient(budgetMs, (client) =>
          client
            .query<{ standby: boolean; replayed: string | null; replay_age: number | null }>(
              REPLICA_POSITION_SQL,
            )
            .then((result) => result.rows),
        ),
      ]);
      const now = Date.now();
      if (position) this.remember(position);
      if (!replica.standby || replica.replayed === null) {
        this.state = { status: 'down', message: 'DATABASE_REPLICA_URL is not a standby' };
      } else {
        const lag = replicaLagSeconds(
          this.positions,
          lsnValue(replica.replayed),
          now,
          replica.replay_age,
        );
        const lagSeconds = Math.round(lag * 1000) / 1000;
        this.state =
          lag > this.options.maxLagSeconds
            ? {
                status: 'lagging',
                lagSeconds,
                message: `lag above ${this.options.maxLagSeconds} s`,
              }
            : { status: 'up', lagSeconds };
      }
    } catch (error) {
      this.state = { status: 'down', message: (error as Error).message };
    }
    this.measuredAt = Date.now();
    return this.state;
  }

  /** The primary's position now, or null when it does not answer within the budget. */
  private async primaryPosition(budgetMs: number): Promise<PrimaryPosition | null> {
    const at = Date.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      const rows = await Promise.race([
        this.primary.rows<{ lsn: string }>(PRIMARY_POSITION_SQL),
        new Promise<null>((resolve) => {
          timer = setTimeout(() => resolve(null), budgetMs);
        }),
      ]);
      return rows ? { at, lsn: lsnValue(rows[0].lsn) } : null;
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Keeps the positions of a little more than the lag bound (older ones date nothing useful). */
  private remember(position: PrimaryPosition): void {
    const keepMs = (this.options.maxLagSeconds + 5) * 1000;
    this.positions.push(position);
    while (this.positions.length > 1 && position.at - this.positions[0].at > keepMs)
      this.positions.shift();
  }

  private markDown(error: unknown): void {
    this.state = { status: 'down', message: (error as Error)?.message ?? String(error) };
    this.measuredAt = Date.now();
  }
}

/**
 * Whether an error in a run is the replica's doing (it went away, cancelled the query for
 * a conflict with replay, refused the connection, did not answer in time): then the run
 * is repeated on the primary. Any other error is the caller's, and is rethrown.
 */
function isReplicaSide(error: unknown): boolean {
  if (error instanceof DeadlinePassed) return true;
  const code = (error as { code?: string })?.code ?? '';
  if (/^(08|57|53|58|XX|40001)/.test(code)) return true;
  // Connection-level failures of the driver carry no SQLSTATE.
  return code === '' || /^E[A-Z]+$/.test(code);
}
