import { InProcessJobQueue } from './in-process-job-queue';
import { QueuedJob } from './job-queue';

/** A promise with its resolve handle, to hold a job inside its handler. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Polls a condition; jest's timeout bounds the wait. */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 1));
}

describe('InProcessJobQueue', () => {
  it('runs jobs up to the concurrency limit and ignores a job id it still knows', async () => {
    const queue = new InProcessJobQueue('q');
    const held = gate();
    const started: unknown[] = [];
    queue.process(
      async (job) => {
        started.push(job.data);
        await held.opened;
      },
      { concurrency: 2 },
    );
    await queue.add('j', 1, { jobId: 'a', removeOnComplete: true });
    await queue.add('j', 1, { jobId: 'a', removeOnComplete: true });
    await queue.add('j', 2);
    await queue.add('j', 3);
    await until(() => started.length === 2);
    expect(started).toEqual([1, 2]);
    expect(await queue.counts()).toEqual({ waiting: 1, active: 2, delayed: 0, failed: 0 });

    const finished: unknown[] = [];
    held.open();
    await until(() => started.length === 3);
    await queue.close().then(() => finished.push('closed'));
    expect(finished).toEqual(['closed']);
    expect(await queue.counts()).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 0 });
  });

  it('forgets a completed job removed on completion, so its id is a new job again', async () => {
    const queue = new InProcessJobQueue('q');
    const done: unknown[] = [];
    queue.process(async (job) => void done.push(job.data), { concurrency: 1 });
    await queue.add('j', 1, { jobId: 'a', removeOnComplete: true });
    await until(async () => (await queue.counts()).active === 0 && done.length === 1);
    await queue.add('j', 2, { jobId: 'a', removeOnComplete: true });
    await until(() => done.length === 2);
    expect(done).toEqual([1, 2]);
    await queue.close();
  });

  it('retries a failing job with backoff, reports every failed attempt, then keeps it as failed', async () => {
    const queue = new InProcessJobQueue('q');
    const failures: Array<{ attemptsMade: number; message: string }> = [];
    const seen: number[] = [];
    queue.process(
      async (job: QueuedJob<string>) => {
        seen.push(job.attemptsMade);
        throw new Error(`no ${job.data}`);
      },
      {
        concurrency: 1,
        onFailed: (job, error) =>
          failures.push({ attemptsMade: job.attemptsMade, message: error.message }),
      },
    );
    await queue.add('j', 'luck', {
      jobId: 'x',
      attempts: 3,
      backoff: { type: 'exponential', delay: 1 },
      removeOnFail: { age: 3600 },
    });
    await until(() => failures.length === 3);
    expect(seen).toEqual([0, 1, 2]);
    expect(failures).toEqual([
      { attemptsMade: 1, message: 'no luck' },
      { attemptsMade: 2, message: 'no luck' },
      { attemptsMade: 3, message: 'no luck' },
    ]);
    expect(await queue.counts()).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 1 });
    // Kept as failed: adding the same id again sends nothing twice.
    await queue.add('j', 'luck', { jobId: 'x', attempts: 3 });
    expect(await queue.counts()).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 1 });
    await queue.close();
  });

  it('close() waits for the running job and takes no new one', async () => {
    const queue = new InProcessJobQueue('q');
    const held = gate();
    const started: number[] = [];
    const finished: number[] = [];
    queue.process(
      async (job: QueuedJob<number>) => {
        started.push(job.data);
        await held.opened;
        finished.push(job.data);
      },
      { concurrency: 1 },
    );
    await queue.add('j', 1);
    await queue.add('j', 2);
    await until(() => started.length === 1);
    let closed = false;
    const closing = queue.close().then(() => (closed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    held.open();
    await closing;
    expect(finished).toEqual([1]);
    await queue.add('j', 3);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(started).toEqual([1]);
    expect(finished).toEqual([1]);
  });
});
