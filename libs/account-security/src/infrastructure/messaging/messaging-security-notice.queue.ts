import { Injectable } from '@nestjs/common';
import { MessageQueue } from '@app/messaging';
import {
  noticeDeliveryKey,
  SECURITY_NOTICE_JOB,
  SecurityNoticeJob,
  SecurityNoticeQueue,
} from '../../application/ports/security-notice.queue.port';

/** Notices ride the message queue: same worker, providers, retries and ledger as codes. */
@Injectable()
export class MessagingSecurityNoticeQueue extends SecurityNoticeQueue {
  constructor(private readonly messages: MessageQueue) {
    super();
  }

  async enqueue(job: SecurityNoticeJob, options: { awaitFirstAttempt: boolean }): Promise<void> {
    // Nothing is reported to the client (a notice's rate limits are retried whoever waits);
    // waiting only lets the change be answered once its mail is out.
    await this.messages.enqueue(
      { name: SECURITY_NOTICE_JOB, key: noticeDeliveryKey(job), data: job },
      options,
    );
  }
}
