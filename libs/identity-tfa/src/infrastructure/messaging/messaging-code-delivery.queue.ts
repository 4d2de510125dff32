import { Injectable } from '@nestjs/common';
import { MessageQueue } from '@app/messaging';
import {
  CODE_DELIVERY_JOB,
  CodeDeliveryJob,
  CodeDeliveryQueue,
  deliveryKey,
  FirstAttemptReport,
} from '../../application/ports/code-delivery.queue.port';

/**
 * Codes go out through the message queue, one job per send (its id the send's key, so a
 * retried enqueue never sends twice); the payload names the challenge, never the code.
 */
@Injectable()
export class MessagingCodeDeliveryQueue extends CodeDeliveryQueue {
  constructor(private readonly messages: MessageQueue) {
    super();
  }

  enqueue(job: CodeDeliveryJob): Promise<FirstAttemptReport> {
    return this.messages.enqueue(
      { name: CODE_DELIVERY_JOB, key: deliveryKey(job), data: job },
      { awaitFirstAttempt: true },
    );
  }
}
