import { Queue, Worker } from 'bullmq';
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
    await this.queue.add(jobName, data, options);
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
    const worker = new Worker<T>(name, (job) => handler(job as QueuedJob<T>), {
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

/** True when the worker's Redis connection is up right now (not reconnecting). */
async function isConnected(worker: Worker): Promise<boolean> {
  const client = await Promise.race([
    worker.client.catch(() => null),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 100).unref()),
  ]);
  return client?.status === 'ready';
}

/**
 * A queue closed while its connection is still being set up has BullMQ report the aborted
 * setup as an 'error' event after close() removed every listener, which would crash the
 * process on its way out. Give a reachable Redis a moment to finish the handshake first.
 */
async function closeQuietly(queue: Queue): Promise<void> {
  await Promise.race([
    queue.waitUntilReady().catch(() => undefined),
    new Promise((resolve) => setTimeout(resolve, CLOSE_HANDSHAKE_WAIT_MS).unref()),
  ]);
  if (!(await settleWithin(queue.close(), QUEUE_CLOSE_MS)))
    await settleWithin(queue.disconnect(), QUEUE_CLOSE_MS);
}
