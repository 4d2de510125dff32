import { Injectable } from '@nestjs/common';
import { SessionAudit } from '@app/accounts';
import { RequestOrigin } from '@app/platform';
import { SecurityEventLog } from './security-event-log.service';

/**
 * Accounts' SessionAudit port (so its one operation carries the port's name): sessions
 * accounts ended (a logout, the user's DELETE auth/sessions/, the operator's revoke-all)
 * become a session_revoked event, in
 * the unit of work that ended them.
 */
@Injectable()
export class RecordSessionsEndedUseCase extends SessionAudit {
  constructor(private readonly events: SecurityEventLog) {
    super();
  }

  async sessionsEnded(
    userId: number,
    ended: { count: number; cause: 'logout' | 'user' | 'operator'; origin: RequestOrigin },
  ): Promise<void> {
    await this.events.sessionsEnded(userId, ended.count, ended.cause, ended.origin);
  }
}
