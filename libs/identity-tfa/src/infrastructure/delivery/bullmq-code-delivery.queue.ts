import { Injectable } from '@nestjs/common';
import { QueueRegistry } from '@app/platform';
import {
  CodeDeliveryJob,
  CodeDeliveryQueue,
} from '../../application/ports/code-delivery.queue.port';

export const CODE_DELIVERY_QUEUE = 'code-delivery';
export const DELIVER_CODE_JOB = 'deliver-code';

/** Job name -> payload: the only job of the queue. The payload never holds the code. */
export interface CodeDeliveryJobs {
  [DELIVER_CODE_JOB]: CodeDeliveryJob;
}

@Injectable()
export class BullmqCodeDeliveryQueue extends CodeDeliveryQueue {
  constructor(private readonly queues: QueueRegistry) {
    super();
  }

  async enqueue(job: CodeDeliveryJob): Promise<void> {
    const payload: CodeDeliveryJobs[typeof DELIVER_CODE_JOB] = job;
    await this.queues.get(CODE_DELIVERY_QUEUE).add(DELIVER_CODE_JOB, payload, {
      // Deterministic: a retried enqueue of the same send never sends twice.
      jobId: `${job.challengeKey}-${job.sendNumber}`,
      attempts: 3,
      backoff: { type: 'exponential', delay: 1_000 },
      removeOnComplete: true,
      removeOnFail: { age: 24 * 3600 },
    });
  }
}
