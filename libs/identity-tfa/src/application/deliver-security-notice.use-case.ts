import { Injectable, Logger } from '@nestjs/common';
import { UserRepository } from '@app/accounts';
import { Clock } from '@app/platform';
import { CodeDeliveryProvider } from './ports/code-delivery.provider.port';
import { noticeDeliveryKey, SecurityNoticeJob } from './ports/security-notice.queue.port';
import { SecurityNoticeRepository } from './ports/security-notice.repository.port';

export type NoticeOutcome = 'sent' | 'abandoned' | 'gone';

/**
 * The worker's notice job: the event's email to the user's address, through the same
 * provider and exactly-once ledger as codes (key `notice-<event id>`), so a retried,
 * swept or taken-over job never mails twice. Sent or abandoned, the notice stops being
 * pending; a retryable failure is thrown for the queue's backoff.
 */
@Injectable()
export class DeliverSecurityNoticeUseCase {
  private readonly logger = new Logger('SecurityNotices');

  constructor(
    private readonly notices: SecurityNoticeRepository,
    private readonly users: UserRepository,
    private readonly provider: CodeDeliveryProvider,
    private readonly clock: Clock,
  ) {}

  async execute(
    job: SecurityNoticeJob,
    attempt: { attempt: number; maxAttempts: number },
  ): Promise<NoticeOutcome> {
    const event = await this.notices.findPending(job.eventId);
    if (!event) return 'gone';
    const user = await this.users.findById(event.userId);
    if (!user?.email) {
      await this.notices.markAbandoned(job.eventId, this.clock.now());
      this.logger.warn(`notice of event ${job.eventId} abandoned: no email address on the account`);
      return 'abandoned';
    }
    const result = await this.provider.deliver({
      message: {
        channel: 'email',
        destination: user.email,
        notice: event,
        idempotencyKey: noticeDeliveryKey(job),
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
