import { Injectable } from '@nestjs/common';
import { defineQueue, QueueRegistry } from '@app/platform';
import {
  FirstAttemptReport,
  MessageJob,
  MessageQueue,
  MessageRetry,
} from '../../application/ports/message-queue.port';
import { DeliverySettings } from '../delivery-settings';
import { RedisDeliveryLedger } from '../redis/redis-delivery-ledger';

/**
 * Every message of every sender, one worker for all, its jobs named by their senders
 * (`deliver-code`, `deliver-notice`). The queue's name is kept from when only 2FA codes
 * went out: jobs waiting in it across a deploy are still run.
 */
export const MESSAGE_QUEUE = defineQueue<Record<string, object>>('code-delivery');

@Injectable()
export class BullmqMessageQueue extends MessageQueue {
  constructor(
    private readonly queues: QueueRegistry,
    private readonly ledger: RedisDeliveryLedger,
    private readonly settings: DeliverySettings,
  ) {
    super();
  }

  async enqueue(
    job: MessageJob,
    options: { awaitFirstAttempt: boolean; retry?: MessageRetry },
  ): Promise<FirstAttemptReport> {
    const waits = options.awaitFirstAttempt && this.settings.firstAttemptWaitMs > 0;
    // Before the job exists, so the worker cannot report to a requester that never listens.
    if (!waits) await this.ledger.markUnheard(job.key);
    await this.queues.jobQueue(MESSAGE_QUEUE).add(job.name, job.data, {
      // Deterministic: a retried enqueue (or a sweep's) of the same send never sends twice.
      jobId: job.key,
      attempts: options.retry?.attempts ?? this.settings.maxAttempts,
      backoff: { type: 'exponential', delay: options.retry?.backoffMs ?? this.settings.backoffMs },
      removeOnComplete: true,
      removeOnFail: { age: 24 * 3600 },
    });
    if (!waits) return { state: 'pending' };
    const outcome = await this.ledger.awaitFirstAttempt(job.key, this.settings.firstAttemptWaitMs);
    if (outcome === 'sent') return { state: 'sent' };
    if (outcome === null || outcome === 'retrying') return { state: 'pending' };
    return { state: 'failed', code: outcome };
  }
}
