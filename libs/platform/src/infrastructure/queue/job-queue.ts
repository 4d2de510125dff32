/**
 * A named job queue as its producers and processors see it, whatever runs it: BullMQ on
 * Redis, or the in-process queue of the embedded mode. The option names are BullMQ's, so
 * the Redis-backed queue passes them through unchanged.
 */
export interface JobOptions {
  /** Deterministic id: adding a job whose id is still known is a no-op. */
  jobId?: string;
  /** Total attempts, the first included (default 1). */
  attempts?: number;
  /** Wait before a retry: `delay`, doubled after each failure when exponential. */
  backoff?: { type: 'exponential' | 'fixed'; delay: number };
  /** Forget a completed job (its id may then be added again). */
  removeOnComplete?: boolean;
  /** Forget a failed job, at once (true) or after `age` seconds. */
  removeOnFail?: boolean | { age: number };
}

/** What a processor receives; `attemptsMade` counts the attempts that already ended. */
export interface QueuedJob<T = unknown> {
  readonly id: string;
  readonly name: string;
  readonly data: T;
  readonly attemptsMade: number;
  readonly opts: { readonly attempts?: number };
}

export type JobCounts = Record<'waiting' | 'active' | 'delayed' | 'failed', number>;

/** Job name -> payload, for every job a queue carries. */
export type JobPayloads = Record<string, unknown>;

/**
 * A queue as its producers and processors name it, with the payload of each of its jobs:
 * `defineQueue<{ 'deliver-code': CodeDeliveryJob }>('code-delivery')`. Adding a job of
 * another name or with another payload fails to compile.
 */
export interface QueueDefinition<Jobs extends JobPayloads> {
  readonly name: string;
  /** Carries the payload types; never set. */
  readonly jobs?: Jobs;
}

export function defineQueue<Jobs extends JobPayloads>(name: string): QueueDefinition<Jobs> {
  return { name };
}

/** The payload of any job of a queue: what its processor receives. */
export type PayloadOf<Jobs extends JobPayloads> = Jobs[keyof Jobs & string];

export interface JobQueue<Jobs extends JobPayloads = JobPayloads> {
  readonly name: string;
  add<Name extends keyof Jobs & string>(
    jobName: Name,
    data: Jobs[Name],
    options?: JobOptions,
  ): Promise<void>;
  /** Depth by state, for readiness and the queue_jobs gauge. */
  counts(): Promise<JobCounts>;
}

export interface ProcessOptions<T> {
  /** Jobs run at the same time by this process. */
  concurrency: number;
  /**
   * How long a running job stays claimed before another worker may take it over (a killed
   * worker's jobs). Redis-backed queues only: an in-process queue dies with its process.
   */
  lockDurationMs?: number;
  /** After every failed attempt; `job.attemptsMade` includes the one that just failed. */
  onFailed?: (job: QueuedJob<T>, error: Error) => void;
}

export type JobHandler<T> = (job: QueuedJob<T>) => Promise<unknown>;

/** A running processor. `close()` takes no new jobs and resolves once the running ones end. */
export interface JobProcessor {
  close(): Promise<void>;
}
