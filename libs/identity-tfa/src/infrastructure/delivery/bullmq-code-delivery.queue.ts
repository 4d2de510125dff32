import { Injectable } from '@nestjs/common';
import { defineQueue, QueueRegistry } from '@app/platform';
import {
  CodeDeliveryJob,
  CodeDeliveryQueue,
  deliveryKey,
  FirstAttemptReport,
} from '../../application/ports/code-delivery.queue.port';
import { SecurityNoticeJob } from '../../application/ports/security-notice.queue.port';
import { DeliverySettings } from '../delivery-providers/delivery-settings';
import { RedisDeliveryLedger } from '../delivery-providers/redis-delivery-ledger';

/**
 * Codes and security notices, one worker for both. Payloads never hold the code or the
 * notice itself: the worker reads them from the challenge and the event.
 */
export const CODE_DELIVERY_QUEUE = defineQueue<{
  'deliver-code': CodeDeliveryJob;
  'deliver-notice': SecurityNoticeJob;
}>('code-delivery');

@Injectable()
export class BullmqCodeDeliveryQueue extends CodeDeliveryQueue {
  constructor(
    private readonly queues: QueueRegistry,
    private readonly ledger: RedisDeliveryLedger,
    private readonly settings: DeliverySettings,
  ) {
    super();
  }

  async enqueue(job: CodeDeliveryJob): Promise<FirstAttemptReport> {
    // Before the job exists, so the worker cannot report to a requester that never listens.
    if (this.settings.firstAttemptWaitMs === 0) await this.ledger.markUnheard(deliveryKey(job));
    await this.queues.jobQueue(CODE_DELIVERY_QUEUE).add('deliver-code', job, {
      // Deterministic: a retried enqueue of the same send never sends twice.
      jobId: deliveryKey(job),
      attempts: this.settings.maxAttempts,
      backoff: { type: 'exponential', delay: this.settings.backoffMs },
      removeOnComplete: true,
      removeOnFail: { age: 24 * 3600 },
    });
    if (this.settings.firstAttemptWaitMs === 0) return { state: 'pending' };
    const outcome = await this.ledger.awaitFirstAttempt(
      deliveryKey(job),
      this.settings.firstAttemptWaitMs,
    );
    if (outcome === 'sent') return { state: 'sent' };
    if (outcome === null || outcome === 'retrying') return { state: 'pending' };
    return { state: 'failed', code: outcome };
  }
}
