import { Injectable, Optional } from '@nestjs/common';
import { OPERATOR_ORIGIN, UnitOfWork } from '@app/platform';
import { AccountsError } from '../../domain/errors';
import { SessionAudit } from '../ports/session-audit.port';
import { SessionRevocation } from '../ports/session-revocation.port';
import { TrustedDeviceRevocation } from '../ports/trusted-device-revocation.port';
import { UserRepository } from '../ports/user.repository.port';

export interface SessionsRevoked {
  sessions: number;
  devices: number;
}

/**
 * `manage user:revoke-sessions ID`: every session of the user ends (API keys stay), and so
 * does every trusted device (identity-tfa's, through TrustedDeviceRevocation): "end every
 * session" also ends what lets a browser sign in again with the password alone. Devices
 * first, under the lock a device login takes, then the sessions: a device login either
 * committed before (its session ends here) or finds its device revoked. All in one
 * transaction, with the record of the ended sessions (SessionAudit).
 */
@Injectable()
export class RevokeUserSessionsUseCase {
  constructor(
    private readonly users: UserRepository,
    private readonly sessions: SessionRevocation,
    private readonly uow: UnitOfWork,
    @Optional() private readonly audit?: SessionAudit,
    @Optional() private readonly devices?: TrustedDeviceRevocation,
  ) {}

  /** How many sessions and trusted devices ended. */
  async execute(userId: number): Promise<SessionsRevoked> {
    if (!(await this.users.findById(userId)))
      throw new AccountsError('not_found', `No user ${userId}`);
    return this.uow.run(async () => {
      const devices = (await this.devices?.revokeAll(userId, 'operator', OPERATOR_ORIGIN)) ?? 0;
      const sessions = await this.sessions.revokeAll(userId);
      if (sessions > 0 && this.audit)
        await this.audit.sessionsEnded(userId, {
          count: sessions,
          cause: 'operator',
          origin: OPERATOR_ORIGIN,
        });
      return { sessions, devices };
    });
  }
}
