import { Injectable } from '@nestjs/common';
import { QueueRegistry } from '@app/platform';
import {
  noticeDeliveryKey,
  SecurityNoticeJob,
  SecurityNoticeQueue,
} from '../../application/ports/security-notice.queue.port';
import { DeliverySettings } from '../delivery-providers/delivery-settings';
import { RedisDeliveryLedger } from '../delivery-providers/redis-delivery-ledger';
import { CODE_DELIVERY_QUEUE } from './bullmq-code-delivery.queue';

/** Notices ride the code delivery queue: same worker, providers, retries and ledger. */
@Injectable()
export class BullmqSecurityNoticeQueue extends SecurityNoticeQueue {
  constructor(
    private readonly queues: QueueRegistry,
    private readonly ledger: RedisDeliveryLedger,
    private readonly settings: DeliverySettings,
  ) {
    super();
  }

  async enqueue(job: SecurityNoticeJob, options: { awaitFirstAttempt: boolean }): Promise<void> {
    const key = noticeDeliveryKey(job);
    await this.queues.jobQueue(CODE_DELIVERY_QUEUE).add('deliver-notice', job, {
      // Deterministic: a second enqueue (the sweeper's) of a job still known is a no-op.
      jobId: key,
      attempts: this.settings.maxAttempts,
      backoff: { type: 'exponential', delay: this.settings.backoffMs },
      removeOnComplete: true,
      removeOnFail: { age: 24 * 3600 },
    });
    // Nothing is reported to the client (ExactlyOnceDelivery retries a notice's rate limit
    // whoever waits); waiting only lets the change be answered once its mail is out.
    if (options.awaitFirstAttempt && this.settings.firstAttemptWaitMs > 0)
      await this.ledger.awaitFirstAttempt(key, this.settings.firstAttemptWaitMs);
  }
}
