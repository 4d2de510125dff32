import { Injectable, Logger } from '@nestjs/common';
import { Clock, RequestOrigin, UnitOfWork } from '@app/platform';
import {
  NewSecurityEvent,
  NOTIFIED_KINDS,
  SecurityEvent,
  SessionEndCause,
} from '../../domain/security-event';
import { SecurityEventRepository } from '../ports/security-event.repository.port';
import { SecurityNoticeQueue } from '../ports/security-notice.queue.port';
import { SecurityNoticeRepository } from '../ports/security-notice.repository.port';

export type SecurityEventInput = Omit<NewSecurityEvent, 'occurredAt'>;

/**
 * Records the user's security events (docs/identity-tfa.md "Security events"), each in
 * the unit of work of the change it records, so a change that rolls back leaves no event.
 * An event of a notified kind also owes the user an email: its pending notice commits with
 * it, and the job is queued once the transaction committed (the worker's sweeper queues
 * again whatever a crash or a queue outage left unsent).
 */
@Injectable()
export class SecurityEventLog {
  private readonly logger = new Logger('SecurityEvents');

  constructor(
    private readonly events: SecurityEventRepository,
    private readonly notices: SecurityNoticeRepository,
    private readonly noticeQueue: SecurityNoticeQueue,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /**
   * `notify: false` leaves out the email of a notified kind when another event of the
   * same change sends one (a removal that turns 2FA off mails once, as tfa_disabled).
   */
  async record(
    input: SecurityEventInput,
    options: { notify?: boolean } = {},
  ): Promise<SecurityEvent> {
    const notify = options.notify ?? NOTIFIED_KINDS.has(input.kind);
    return this.uow.run(async () => {
      const event = await this.events.append({ ...input, occurredAt: this.clock.now() });
      if (notify) {
        await this.notices.addPending(event.id, event.occurredAt);
        this.uow.afterCommit(() => this.queueNotice(event.id));
      }
      return event;
    });
  }

  /** session_revoked, when any session ended (nothing is recorded for none). */
  async sessionsEnded(
    userId: number,
    sessions: number,
    cause: SessionEndCause,
    origin: RequestOrigin,
  ): Promise<void> {
    if (sessions === 0) return;
    await this.record({
      userId,
      kind: 'session_revoked',
      method: null,
      details: { sessions, cause },
      origin,
    });
  }

  private async queueNotice(eventId: number): Promise<void> {
    try {
      await this.noticeQueue.enqueue({ eventId }, { awaitFirstAttempt: true });
    } catch (error) {
      // The notice stays pending: the worker's sweeper queues it again.
      this.logger.warn(
        `notice of event ${eventId} not queued (the sweeper will): ${(error as Error).message}`,
      );
    }
  }
}
