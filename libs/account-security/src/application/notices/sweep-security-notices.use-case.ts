import { Injectable } from '@nestjs/common';
import { Clock } from '@app/platform';
import { SECURITY_EVENT_POLICY } from '../../domain/security-event';
import { AccountSecuritySettings } from '../../domain/account-security-settings';
import { SecurityNoticeQueue } from '../ports/security-notice.queue.port';
import { SecurityNoticeRepository } from '../ports/security-notice.repository.port';

/**
 * Queues again the notices still pending after TFA_NOTICE_RETRY_SECONDS: those whose job
 * was lost between the commit and the queue (a crash, Redis away). A notice whose job is
 * still known is not queued twice (its job id is the event's), and the delivery ledger
 * makes a second job of a sent notice send nothing.
 */
@Injectable()
export class SweepSecurityNoticesUseCase {
  constructor(
    private readonly notices: SecurityNoticeRepository,
    private readonly queue: SecurityNoticeQueue,
    private readonly settings: AccountSecuritySettings,
    private readonly clock: Clock,
  ) {}

  /** How many notices were queued again. */
  async execute(): Promise<number> {
    const before = new Date(this.clock.nowMs() - this.settings.noticeRetrySeconds * 1000);
    const due = await this.notices.pendingSince(before, SECURITY_EVENT_POLICY.sweepBatchSize);
    for (const eventId of due) await this.queue.enqueue({ eventId }, { awaitFirstAttempt: false });
    return due.length;
  }
}
