import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { CounterName, Metrics } from '../../application/ports/metrics.port';
import { QueueRegistry } from '../queue/queue-registry';

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
};

/** One registry per process; api and worker each expose their own. */
export class PrometheusMetrics extends Metrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  private readonly counters = new Map<CounterName, Counter<string>>();

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
  }

  increment(name: CounterName, labels: Record<string, string> = {}, by = 1): void {
    this.counters.get(name)?.inc(labels, by);
  }
}
