import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import {
  HealthCheckResult,
  HealthCheckService,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import Redis from 'ioredis';
import { LagTolerantReads } from '../application/ports/lag-tolerant-reads.port';
import { Lifecycle } from '../infrastructure/lifecycle';
import { QueueRegistry } from '../infrastructure/queue/queue-registry';

const CHECK_TIMEOUT_MS = 1_500;

/**
 * The key readiness writes. PING needs no key, so a Redis Cluster that refuses every keyed
 * command (CLUSTERDOWN: a master lost without a replica) or a demoted master (READONLY)
 * still answers it while every request that needs Redis fails: readiness writes a key
 * instead, as the requests do. Single-key, short-lived, one slot (docs/operations.md).
 */
export const READINESS_PROBE_KEY = 'readiness:probe';

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    work,
    new Promise<never>((_resolve, reject) =>
      setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms).unref(),
    ),
  ]);
}

/**
 * Whether this process can do its work right now: not draining, migrated, PostgreSQL,
 * Redis and the queues answering; an api also reports the read replica (never failing on
 * it). Served by the api's GET /health/ready and the worker's metrics listener.
 */
@Injectable()
export class Readiness {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly redis: Redis,
    private readonly queues: QueueRegistry,
    private readonly lifecycle: Lifecycle,
    private readonly reads: LagTolerantReads,
  ) {}

  /** The result (terminus' shape); a ServiceUnavailableException carrying it when not ready. */
  async check(options: { replica: boolean }): Promise<HealthCheckResult> {
    try {
      return await this.health.check([
        () => this.lifecycleCheck(),
        () => this.database.pingCheck('database', { timeout: CHECK_TIMEOUT_MS }),
        () => this.redisCheck(),
        () => this.queueCheck(),
        ...(options.replica ? [() => this.replicaCheck()] : []),
      ]);
    } catch (error) {
      throw this.lifecycle.draining ? namingTheDrain(error) : error;
    }
  }

  private async lifecycleCheck() {
    const check = this.indicators.check('instance');
    if (this.lifecycle.draining) return check.down({ message: DRAINING.message });
    try {
      if (await withTimeout(this.lifecycle.stillPendingMigrations(), CHECK_TIMEOUT_MS)) {
        return check.down({ message: 'migrations pending' });
      }
    } catch (error) {
      return check.down({ message: `migration state unknown: ${(error as Error).message}` });
    }
    return check.up();
  }

  private async redisCheck() {
    const check = this.indicators.check('redis');
    try {
      await withTimeout(
        this.redis.set(READINESS_PROBE_KEY, String(process.pid), 'PX', 60_000),
        CHECK_TIMEOUT_MS,
      );
      return check.up();
    } catch (error) {
      return check.down({ message: (error as Error).message });
    }
  }

  /**
   * The read replica is reported, never failed on: without it the lag-tolerant reads go
   * to the primary, so this instance still serves everything.
   */
  private async replicaCheck() {
    const state = await this.reads.replicaState();
    return this.indicators.check('database_replica').up({
      replica: state.status,
      ...(state.lagSeconds === undefined ? {} : { lag_seconds: state.lagSeconds }),
      ...(state.message ? { message: state.message } : {}),
    });
  }

  private async queueCheck() {
    const check = this.indicators.check('queue');
    try {
      const details: Record<string, unknown> = {};
      for (const queue of this.queues.opened()) {
        details[queue.name] = await withTimeout(queue.counts(), CHECK_TIMEOUT_MS);
      }
      return check.up(details);
    } catch (error) {
      return check.down({ message: (error as Error).message });
    }
  }
}

const DRAINING = { status: 'down', message: 'draining: shutting down' } as const;

/**
 * A check that began before the shutdown can end after terminus has switched itself to
 * "shutting_down" (a bare 503 whose indicators are all up): the body must still say why.
 */
function namingTheDrain(error: unknown): unknown {
  if (!(error instanceof ServiceUnavailableException)) return error;
  const result = error.getResponse() as HealthCheckResult;
  if (typeof result !== 'object' || !result.details) return error;
  const { instance: _instanceUp, ...info } = result.info ?? {};
  return new ServiceUnavailableException({
    ...result,
    info,
    error: { ...result.error, instance: DRAINING },
    details: { ...result.details, instance: DRAINING },
  });
}
