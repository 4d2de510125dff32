import { Injectable, Optional } from '@nestjs/common';
import { OPERATOR_ORIGIN, UnitOfWork } from '@app/platform';
import { AccountsError } from '../domain/errors';
import { SessionAudit } from './ports/session-audit.port';
import { SessionRevocation } from './ports/session-revocation.port';
import { UserRepository } from './ports/user.repository.port';

/**
 * `manage user:revoke-sessions ID`: every session of the user ends (API keys stay), and
 * the end is recorded (SessionAudit) in the same transaction.
 */
@Injectable()
export class RevokeUserSessionsUseCase {
  constructor(
    private readonly users: UserRepository,
    private readonly sessions: SessionRevocation,
    private readonly uow: UnitOfWork,
    @Optional() private readonly audit?: SessionAudit,
  ) {}

  /** How many sessions ended. */
  async execute(userId: number): Promise<number> {
    if (!(await this.users.findById(userId)))
      throw new AccountsError('not_found', `No user ${userId}`);
    return this.uow.run(async () => {
      const count = await this.sessions.revokeAll(userId);
      if (count > 0 && this.audit)
        await this.audit.sessionsEnded(userId, {
          count,
          cause: 'operator',
          origin: OPERATOR_ORIGIN,
        });
      return count;
    });
  }
}
