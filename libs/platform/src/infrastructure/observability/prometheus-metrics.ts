import type { Pool } from 'pg';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { ReplicaState } from '../../application/ports/lag-tolerant-reads.port';
import { CounterName, Metrics } from '../../application/ports/metrics.port';
import { QueueRegistry } from '../queue/queue-registry';

/** A database connection pool by role: the primary's, or the read replica's. */
export type PoolRole = 'primary' | 'replica';

/** What the replica gauges read: its last measured state (measured again when stale). */
export interface ReplicaSource {
  replicaState(): Promise<ReplicaState>;
}

const COUNTERS: Record<CounterName, { help: string; labelNames: string[] }> = {
  tfa_verifications_total: {
    help: '2FA code verifications by method and outcome',
    labelNames: ['method', 'outcome'],
  },
  tfa_lockouts_total: {
    help: '2FA methods locked after repeated failures',
    labelNames: ['method'],
  },
  code_delivery_attempts_total: {
    help: 'Verification code delivery attempts',
    labelNames: ['channel', 'provider', 'outcome'],
  },
  code_delivery_failures_total: {
    help: 'Deliveries abandoned after their last attempt',
    labelNames: ['channel', 'provider'],
  },
  rate_limit_refusals_total: {
    help: 'Requests refused by a per-endpoint rate limit',
    labelNames: ['bucket'],
  },
  concurrency_refusals_total: {
    help: 'Requests refused because the user already had the maximum in flight',
    labelNames: ['bucket'],
  },
  charges_export_cuts_total: {
    help: 'Charges exports cut short: a client that stopped reading (stalled) or past the wall-clock bound (deadline)',
    labelNames: ['reason'],
  },
  budget_sweep_passes_total: {
    help: "Passes of the worker's budget sweep (every owner's budgets evaluated)",
    labelNames: [],
  },
  budget_alerts_total: {
    help: 'Budget thresholds crossed (alert rows made), by what evaluated them',
    labelNames: ['trigger'],
  },
};

/**
 * One registry per process; api and worker each expose their own, on their metrics
 * listener (docs/operations.md "Metrics").
 */
export class PrometheusMetrics extends Metrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  private readonly counters = new Map<CounterName, Counter<string>>();
  private readonly pools = new Map<PoolRole, { pool: Pool; max: number }>();
  private replica: ReplicaSource | null = null;
  private readonly poolWait: Histogram<'pool'>;
  private readonly poolWaitTimeouts: Counter<'pool'>;
  private readonly lagTolerantReads: Counter<'node'>;

  constructor(queues: QueueRegistry) {
    super();
    collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [this.registry],
    });
    for (const [name, spec] of Object.entries(COUNTERS)) {
      this.counters.set(
        name as CounterName,
        new Counter({
          name,
          help: spec.help,
          labelNames: spec.labelNames,
          registers: [this.registry],
        }),
      );
    }
    new Gauge({
      name: 'queue_jobs',
      help: 'Jobs per queue and state',
      labelNames: ['queue', 'state'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const queue of queues.opened()) {
          try {
            const counts = await queue.counts();
            for (const [state, count] of Object.entries(counts))
              this.set({ queue: queue.name, state }, count);
          } catch {
            // Redis down: the gauge is simply absent; readiness reports the outage.
          }
        }
      },
    });
    this.poolWait = new Histogram({
      name: 'db_pool_wait_seconds',
      help: 'Time to obtain a pooled database connection (a free one, or a new one opened)',
      labelNames: ['pool'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5],
      registers: [this.registry],
    });
    this.poolWaitTimeouts = new Counter({
      name: 'db_pool_wait_failures_total',
      help: 'Requests for a pooled connection that failed (no free one in time, or refused by the server)',
      labelNames: ['pool'],
      registers: [this.registry],
    });
    this.lagTolerantReads = new Counter({
      name: 'db_lag_tolerant_reads_total',
      help: 'Lag-tolerant reads (the charges report) by the node that served them',
      labelNames: ['node'],
      registers: [this.registry],
    });
    const pools = this.pools;
    const poolGauge = (name: string, help: string, read: (pool: Pool, max: number) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['pool'],
        registers: [this.registry],
        collect() {
          this.reset();
          for (const [role, { pool, max }] of pools) this.set({ pool: role }, read(pool, max));
        },
      });
    poolGauge('db_pool_connections_in_use', 'Pooled connections checked out', (pool) =>
      Math.max(0, pool.totalCount - pool.idleCount),
    );
    poolGauge(
      'db_pool_connections_idle',
      'Pooled connections open and free',
      (pool) => pool.idleCount,
    );
    poolGauge(
      'db_pool_waiting',
      'Requests waiting for a pooled connection',
      (pool) => pool.waitingCount,
    );
    poolGauge(
      'db_pool_max_connections',
      'Size of the pool (DATABASE_POOL_MAX)',
      (_pool, max) => max,
    );
    const replica = () => this.replica;
    new Gauge({
      name: 'db_replica_lag_seconds',
      help: "The read replica's lag behind the primary, last measured (absent when unknown)",
      registers: [this.registry],
      async collect() {
        this.reset();
        const state = await replica()?.replicaState();
        if (state?.lagSeconds !== undefined) this.set(state.lagSeconds);
      },
    });
    new Gauge({
      name: 'db_replica_status',
      help: 'The read replica state: 1 for the current one of up, lagging, down (none without a replica)',
      labelNames: ['status'],
      registers: [this.registry],
      async collect() {
        this.reset();
        const state = (await replica()?.replicaState()) ?? { status: 'none' };
        for (const status of ['up', 'lagging', 'down', 'none'])
          this.set({ status }, status === state.status ? 1 : 0);
      },
    });
  }

  increment(name: CounterName, labels: Record<string, string> = {}, by = 1): void {
    this.counters.get(name)?.inc(labels, by);
  }

  /**
   * Reports a pg pool's connections (in use, idle, waiters) and times every request for a
   * connection: pg-pool has no event for a wait, so `connect` is wrapped, which covers both
   * its callback form (TypeORM, pool.query) and its promise form.
   */
  watchPool(role: PoolRole, pool: Pool, max: number): void {
    this.pools.set(role, { pool, max });
    const connect = pool.connect.bind(pool) as (callback?: ConnectCallback) => unknown;
    const observe = (startedAt: bigint, error: unknown) => {
      if (error) this.poolWaitTimeouts.inc({ pool: role });
      else this.poolWait.observe({ pool: role }, Number(process.hrtime.bigint() - startedAt) / 1e9);
    };
    (pool as unknown as { connect: (callback?: ConnectCallback) => unknown }).connect = (
      callback?: ConnectCallback,
    ) => {
      const startedAt = process.hrtime.bigint();
      if (callback) {
        return connect((error, client, release) => {
          observe(startedAt, error);
          callback(error, client, release);
        });
      }
      return (connect() as Promise<unknown>).then(
        (client) => {
          observe(startedAt, null);
          return client;
        },
        (error: unknown) => {
          observe(startedAt, error);
          throw error;
        },
      );
    };
  }

  /** Where the replica gauges read from (only where DATABASE_REPLICA_URL is set). */
  watchReplica(source: ReplicaSource): void {
    this.replica = source;
  }

  /** One lag-tolerant read served, by the node that served it. */
  servedRead(node: PoolRole): void {
    this.lagTolerantReads.inc({ node });
  }
}

type ConnectCallback = (error: Error | undefined, client: unknown, release: unknown) => void;
