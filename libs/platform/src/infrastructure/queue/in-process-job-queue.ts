import {
  JobCounts,
  JobHandler,
  JobOptions,
  JobProcessor,
  JobQueue,
  ProcessOptions,
  QueuedJob,
} from './job-queue';

type State = 'waiting' | 'active' | 'delayed' | 'failed' | 'completed';

interface Entry {
  job: { id: string; name: string; data: unknown; attemptsMade: number; opts: JobOptions };
  state: State;
}

/**
 * The embedded mode's queue: jobs live in this process's memory with BullMQ's semantics
 * for what the contexts use (deterministic ids, attempts with fixed or exponential backoff,
 * removal on completion or failure, a concurrency limit). Nothing survives the process,
 * which is right for a single development instance: a delayed retry is dropped on shutdown,
 * a running job is waited for.
 */
export class InProcessJobQueue implements JobQueue {
  private readonly entries = new Map<string, Entry>();
  private readonly ready: Entry[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private handler?: JobHandler<unknown>;
  private options: ProcessOptions<unknown> = { concurrency: 1 };
  private running = 0;
  private closed = false;
  private nextId = 1;
  private readonly idleWaiters: Array<() => void> = [];

  constructor(readonly name: string) {}

  async add(jobName: string, data: unknown, options: JobOptions = {}): Promise<void> {
    const id = options.jobId ?? `${this.nextId++}`;
    if (this.closed || this.entries.has(id)) return;
    const entry: Entry = {
      job: { id, name: jobName, data, attemptsMade: 0, opts: options },
      state: 'waiting',
    };
    this.entries.set(id, entry);
    this.ready.push(entry);
    this.pump();
  }

  async counts(): Promise<JobCounts> {
    const counts: JobCounts = { waiting: 0, active: 0, delayed: 0, failed: 0 };
    for (const { state } of this.entries.values()) if (state !== 'completed') counts[state] += 1;
    return counts;
  }

  process<T>(handler: JobHandler<T>, options: ProcessOptions<T>): JobProcessor {
    if (this.handler) throw new Error(`Queue ${this.name} already has a processor`);
    this.handler = handler as JobHandler<unknown>;
    this.options = options as ProcessOptions<unknown>;
    this.pump();
    return { close: () => this.close() };
  }

  /** Takes no new jobs, drops delayed retries, resolves once the running jobs have ended. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    if (this.running === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (
      this.handler &&
      !this.closed &&
      this.running < Math.max(1, this.options.concurrency) &&
      this.ready.length > 0
    ) {
      void this.run(this.ready.shift()!);
    }
  }

  private async run(entry: Entry): Promise<void> {
    entry.state = 'active';
    this.running += 1;
    try {
      await Promise.resolve().then(() => this.handler!(snapshot(entry)));
      this.settle(entry, 'completed');
    } catch (error) {
      entry.job.attemptsMade += 1;
      this.options.onFailed?.(snapshot(entry), asError(error));
      if (entry.job.attemptsMade < (entry.job.opts.attempts ?? 1)) this.retryLater(entry);
      else this.settle(entry, 'failed');
    } finally {
      this.running -= 1;
      if (this.closed && this.running === 0) this.idleWaiters.splice(0).forEach((done) => done());
      this.pump();
    }
  }

  private retryLater(entry: Entry): void {
    entry.state = 'delayed';
    const { backoff } = entry.job.opts;
    const delay = !backoff
      ? 0
      : backoff.type === 'fixed'
        ? backoff.delay
        : backoff.delay * 2 ** (entry.job.attemptsMade - 1);
    this.later(delay, () => {
      entry.state = 'waiting';
      this.ready.push(entry);
      this.pump();
    });
  }

  private settle(entry: Entry, outcome: 'completed' | 'failed'): void {
    entry.state = outcome;
    const remove =
      outcome === 'completed' ? entry.job.opts.removeOnComplete : entry.job.opts.removeOnFail;
    if (remove === true) this.entries.delete(entry.job.id);
    else if (typeof remove === 'object')
      this.later(remove.age * 1000, () => this.entries.delete(entry.job.id));
  }

  private later(ms: number, work: () => void): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      work();
    }, ms);
    // Pending retries and expiries never keep the process alive on their own.
    timer.unref();
    this.timers.add(timer);
  }
}

function snapshot(entry: Entry): QueuedJob {
  const { id, name, data, attemptsMade, opts } = entry.job;
  return { id, name, data, attemptsMade, opts: { attempts: opts.attempts } };
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
