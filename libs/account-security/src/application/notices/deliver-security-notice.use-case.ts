import { Injectable, Logger } from '@nestjs/common';
import { UserRepository } from '@app/accounts';
import { JobAttempt, MessageSender } from '@app/messaging';
import { Clock } from '@app/platform';
import { noticeContent } from '../../domain/notice-message-text';
import { AccountSecuritySettings } from '../../domain/account-security-settings';
import { noticeDeliveryKey, SecurityNoticeJob } from '../ports/security-notice.queue.port';
import { SecurityNoticeRepository } from '../ports/security-notice.repository.port';

export type NoticeOutcome = 'sent' | 'abandoned' | 'gone';

/**
 * The worker's notice job: the event's email, worded from the event alone, to the user's
 * address, through messaging's exactly-once send as codes are (key `notice-<event id>`), so a retried,
 * swept or taken-over job never mails twice. Sent or abandoned, the notice stops being
 * pending; a retryable failure is thrown for the queue's backoff.
 */
@Injectable()
export class DeliverSecurityNoticeUseCase {
  private readonly logger = new Logger('SecurityNotices');

  constructor(
    private readonly notices: SecurityNoticeRepository,
    private readonly users: UserRepository,
    private readonly sender: MessageSender,
    private readonly settings: AccountSecuritySettings,
    private readonly clock: Clock,
  ) {}

  async execute(job: SecurityNoticeJob, attempt: JobAttempt): Promise<NoticeOutcome> {
    const event = await this.notices.findPending(job.eventId);
    if (!event) return 'gone';
    const user = await this.users.findById(event.userId);
    if (!user?.email) {
      await this.notices.markAbandoned(job.eventId, this.clock.now());
      this.logger.warn(`notice of event ${job.eventId} abandoned: no email address on the account`);
      return 'abandoned';
    }
    const result = await this.sender.send({
      message: {
        channel: 'email',
        destination: user.email,
        content: noticeContent(this.settings.messageBrand, event),
        kind: 'notice',
        idempotencyKey: noticeDeliveryKey(job),
        // Nobody waits to decide on a notice: the provider's rate limits are retried.
        requesterDecides: false,
      },
      ...attempt,
    });
    if (result.outcome === 'abandoned') {
      await this.notices.markAbandoned(job.eventId, this.clock.now());
      return 'abandoned';
    }
    await this.notices.markSent(job.eventId, this.clock.now());
    return 'sent';
  }
}
