import { AccountsError } from '../../domain/errors';
import { Injectable, Optional } from '@nestjs/common';
import { Principal, RequestOrigin, UnitOfWork } from '@app/platform';
import { SessionAudit } from '../ports/session-audit.port';
import { SessionRevocation } from '../ports/session-revocation.port';

/**
 * Ends the session whose key made the request; API keys are not ended this way. The end
 * is recorded (SessionAudit) in the same transaction.
 */
@Injectable()
export class LogoutUseCase {
  constructor(
    private readonly sessions: SessionRevocation,
    private readonly uow: UnitOfWork,
    @Optional() private readonly audit?: SessionAudit,
  ) {}

  async execute(principal: Principal, origin: RequestOrigin): Promise<void> {
    if (principal.credentialKind !== 'session')
      throw new AccountsError(
        'bad_request',
        'Logout ends a session key; this request was made with an API key.',
      );
    await this.uow.run(async () => {
      const ended = await this.sessions.revoke(principal.credentialId);
      if (ended && this.audit)
        await this.audit.sessionsEnded(principal.userId, { count: 1, cause: 'logout', origin });
    });
  }
}
