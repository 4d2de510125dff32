import { Job, Queue, Worker } from 'bullmq';
import { tracingHooks } from '../observability/tracing-state';
import { RedisConnectionFactory } from '../redis/redis-connection.factory';
import { settleWithin } from '../settle-within';
import { InProcessJobQueue } from './in-process-job-queue';
import {
  JobCounts,
  JobHandler,
  JobOptions,
  JobProcessor,
  JobPayloads,
  JobQueue,
  PayloadOf,
  ProcessOptions,
  QueueDefinition,
  QueuedJob,
} from './job-queue';

/** How long closing waits for a queue connection still being set up. */
const CLOSE_HANDSHAKE_WAIT_MS = 2_000;
/**
 * How long a queue's orderly close may take before its connection is dropped: with Redis
 * down, BullMQ's close waits for a reconnection that may never come.
 */
const QUEUE_CLOSE_MS = 2_000;

/** A BullMQ queue behind the JobQueue interface. */
class BullmqJobQueue implements JobQueue {
  constructor(readonly queue: Queue) {}

  get name(): string {
    return this.queue.name;
  }

  async add(jobName: string, data: unknown, options?: JobOptions): Promise<void> {
    const tracing = tracingHooks();
    if (!tracing) {
      await this.queue.add(jobName, data, options);
      return;
    }
    // The job carries the producer's trace context in BullMQ's own field for it, so the
    // worker's span joins the request's trace in whichever process runs the job.
    await tracing.inSpan(
      `send ${this.name}`,
      'producer',
      jobAttributes(this.name, jobName, 'send', options?.jobId),
      async (traceHeaders) => {
        await this.queue.add(jobName, data, {
          ...options,
          telemetry: { metadata: JSON.stringify(traceHeaders) },
        });
      },
    );
  }

  async counts(): Promise<JobCounts> {
    await this.queue.waitUntilReady();
    return (await this.queue.getJobCounts('waiting', 'active', 'delayed', 'failed')) as JobCounts;
  }
}

/**
 * Job queues by name. With Redis they are BullMQ queues sharing the platform's Redis
 * settings, so producers and workers may be different processes; in the embedded mode
 * they run in this process. Producers take `jobQueue(name)`, processors `process(name)`;
 * readiness and metrics report every queue that was opened.
 */
export class QueueRegistry {
  private readonly bullmq = new Map<string, BullmqJobQueue>();
  private readonly local = new Map<string, InProcessJobQueue>();

  /**
   * `workerCloseMs` bounds a worker's close (its running jobs finishing, then its
   * connections); past it the worker is dropped and its jobs are taken over by another
   * worker once their lock lapses.
   */
  constructor(
    private readonly connections: RedisConnectionFactory,
    private readonly inProcess = false,
    private readonly workerCloseMs = 10_000,
  ) {}

  jobQueue<Jobs extends JobPayloads>(queue: QueueDefinition<Jobs>): JobQueue<Jobs> {
    return this.queueNamed(queue.name);
  }

  private queueNamed(name: string): JobQueue {
    if (!this.inProcess) return this.bullmqQueue(name);
    let queue = this.local.get(name);
    if (!queue) {
      queue = new InProcessJobQueue(name);
      this.local.set(name, queue);
    }
    return queue;
  }

  process<Jobs extends JobPayloads, T extends PayloadOf<Jobs> = PayloadOf<Jobs>>(
    queue: QueueDefinition<Jobs>,
    handler: JobHandler<T>,
    options: ProcessOptions<T>,
  ): JobProcessor {
    const { name } = queue;
    // A BullMQ worker needs no Queue object: one is opened only where jobs are added.
    if (this.inProcess)
      return (this.queueNamed(name) as InProcessJobQueue).process(handler, options);
    const worker = new Worker<T>(name, tracedHandler(name, handler), {
      connection: this.connections.queueConnection(`worker:${name}`),
      prefix: this.connections.queuePrefix,
      concurrency: options.concurrency,
      ...(options.lockDurationMs
        ? {
            lockDuration: options.lockDurationMs,
            // BullMQ moves a job back only after two stalled checks find it unlocked, so
            // the checks run as often as the lock lasts.
            stalledInterval: options.lockDurationMs,
          }
        : {}),
    });
    worker.on('failed', (job, error) => {
      if (job) options.onFailed?.(job as QueuedJob<T>, error);
    });
    // Connection errors are retried by BullMQ; readiness reports the outage.
    worker.on('error', () => undefined);
    return {
      close: async () => {
        // With Redis away a running job cannot be recorded as done anyway: stop at once
        // (its lock lapses and another worker retries it) instead of waiting for Redis.
        const connected = await isConnected(worker);
        // With Redis there, its blocking connection may still be in its handshake (a SIGTERM
        // right after the start): the same crash as a queue's (see handshakeSettled).
        if (connected) await handshakeSettled(worker.waitUntilReady());
        const closing = connected ? worker.close() : worker.close(true);
        if (!(await settleWithin(closing, connected ? this.workerCloseMs : QUEUE_CLOSE_MS)))
          await settleWithin(worker.disconnect(), QUEUE_CLOSE_MS);
      },
    };
  }

  /** The BullMQ queue itself (always on Redis), for tests and tools that inspect jobs. */
  get(name: string): Queue {
    return this.bullmqQueue(name).queue;
  }

  /** BullMQ's key prefix: queues and workers must agree on it (a hash tag in a cluster). */
  get prefix(): string {
    return this.connections.queuePrefix;
  }

  opened(): JobQueue[] {
    return [...this.local.values(), ...this.bullmq.values()];
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.local.values()].map((queue) => queue.close()));
    await Promise.all([...this.bullmq.values()].map(({ queue }) => closeQuietly(queue)));
    this.local.clear();
    this.bullmq.clear();
  }

  private bullmqQueue(name: string): BullmqJobQueue {
    let wrapper = this.bullmq.get(name);
    if (!wrapper) {
      const queue = new Queue(name, {
        connection: this.connections.queueConnection(`queue:${name}`, {
          enableOfflineQueue: false,
        }),
        prefix: this.connections.queuePrefix,
      });
      queue.on('error', () => undefined);
      wrapper = new BullmqJobQueue(queue);
      this.bullmq.set(name, wrapper);
    }
    return wrapper;
  }
}

/** What a job's spans say about it: queue, job name and id, never its payload. */
function jobAttributes(
  queue: string,
  jobName: string,
  operation: 'send' | 'process',
  jobId: string | undefined,
): Record<string, string> {
  return {
    'messaging.system': 'bullmq',
    'messaging.destination.name': queue,
    'messaging.operation.type': operation,
    'messaging.bullmq.job.name': jobName,
    ...(jobId ? { 'messaging.message.id': jobId } : {}),
  };
}

/**
 * The processor as BullMQ runs it: with tracing, each attempt is a consumer span, child of
 * the span that added the job (its context travels in the job's telemetry metadata).
 */
function tracedHandler<T>(
  queue: string,
  handler: JobHandler<T>,
): (job: Job<T>) => Promise<unknown> {
  const tracing = tracingHooks();
  if (!tracing) return (job) => handler(job as QueuedJob<T>);
  return (job) =>
    tracing.inSpan(
      `process ${queue}`,
      'consumer',
      {
        ...jobAttributes(queue, job.name, 'process', job.id),
        'messaging.bullmq.job.attempt': job.attemptsMade + 1,
      },
      () => handler(job as QueuedJob<T>),
      producerContext(job.opts.telemetry?.metadata),
    );
}

/** The W3C headers a producer put in the job, if any (and readable). */
function producerContext(metadata: string | undefined): Record<string, string> | undefined {
  if (!metadata) return undefined;
  try {
    const parsed = JSON.parse(metadata) as unknown;
    return typeof parsed === 'object' && parsed !== null
      ? (parsed as Record<string, string>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** True when the worker's Redis connection is up right now (not reconnecting). */
async function isConnected(worker: Worker): Promise<boolean> {
  const client = await Promise.race([
    worker.client.catch(() => null),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 100).unref()),
  ]);
  return client?.status === 'ready';
}

/**
 * A queue or worker closed while a connection of its is still being set up has BullMQ report
 * the aborted setup as an 'error' event after close() removed every listener, which would
 * crash the process on its way out (exit 1 instead of 0). Give a reachable Redis a moment to
 * finish the handshake first; an unreachable one costs at most CLOSE_HANDSHAKE_WAIT_MS.
 */
function handshakeSettled(ready: Promise<unknown>): Promise<unknown> {
  return Promise.race([
    ready.catch(() => undefined),
    new Promise((resolve) => setTimeout(resolve, CLOSE_HANDSHAKE_WAIT_MS).unref()),
  ]);
}

async function closeQuietly(queue: Queue): Promise<void> {
  await handshakeSettled(queue.waitUntilReady());
  if (!(await settleWithin(queue.close(), QUEUE_CLOSE_MS)))
    await settleWithin(queue.disconnect(), QUEUE_CLOSE_MS);
}
