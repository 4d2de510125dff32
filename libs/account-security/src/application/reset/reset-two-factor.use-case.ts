import { Injectable } from '@nestjs/common';
import { SessionRevocation, UserRepository } from '@app/accounts';
import { Clock, OPERATOR_ORIGIN, UnitOfWork } from '@app/platform';
import { ACCOUNT_SECURITY_ERROR_MESSAGES } from '../../domain/error-messages';
import { AccountSecurityError } from '../../domain/errors';
import { resetReasonProblem } from '../../domain/security-event';
import { DeviceTrust } from '../devices/device-trust.service';
import { SecondFactorEraser } from '../ports/second-factor-eraser.port';
import { UserSecurityLock } from '../ports/user-security-lock.port';
import { SecurityEventLog } from '../events/security-event-log.service';

export interface ResetTwoFactorCommand {
  userId: number;
  reason: string;
}

export interface TwoFactorReset {
  methodsRemoved: number;
  backupCodesRevoked: number;
  sessionsRevoked: number;
  devicesRevoked: number;
}

/**
 * `manage user:reset-2fa ID --reason TEXT`: for a user who lost every factor, in one
 * transaction: every method removed, 2FA off, backup codes soft-deleted, every session
 * ended and every trusted device revoked, admin_reset recorded with the reason and its
 * notice queued. API keys keep working.
 */
@Injectable()
export class ResetTwoFactorUseCase {
  constructor(
    private readonly users: UserRepository,
    private readonly secondFactor: SecondFactorEraser,
    private readonly sessions: SessionRevocation,
    private readonly devices: DeviceTrust,
    private readonly events: SecurityEventLog,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly lock: UserSecurityLock,
  ) {}

  async execute(command: ResetTwoFactorCommand): Promise<TwoFactorReset> {
    const problem = resetReasonProblem(command.reason);
    if (problem) throw new AccountSecurityError('bad_request', problem);
    const user = await this.users.findById(command.userId);
    if (!user)
      throw new AccountSecurityError(
        'not_found',
        ACCOUNT_SECURITY_ERROR_MESSAGES.noSuchUser(command.userId),
      );
    const origin = OPERATOR_ORIGIN;
    return this.uow.run(async () => {
      // The user's lock first, as every 2FA change takes it: a trusted-device login either
      // committed before (its session ends here) or waits and finds its device revoked.
      await this.lock.lock(user.id);
      const erased = await this.secondFactor.eraseAll(user.id, this.clock.now());
      const current = await this.users.findById(user.id);
      const tfaWasOn = current !== null && (current.tfaEnabled || current.tfaStatus !== 'disabled');
      await this.users.setTfaState(user.id, false, 'disabled');
      const sessionsRevoked = await this.sessions.revokeAll(user.id);
      const devicesRevoked = await this.devices.revokeAll(user.id, 'operator', origin);
      const reset = {
        methodsRemoved: erased.methodsRemoved,
        backupCodesRevoked: erased.backupCodesRevoked,
        sessionsRevoked,
        devicesRevoked,
      };
      const changedAnything = tfaWasOn || Object.values(reset).some((count) => count > 0);
      // The event always (what the operator did); the mail only when something changed,
      // and it says only what did (a second run, or a user without 2FA, mails nothing).
      await this.events.record(
        {
          userId: user.id,
          kind: 'admin_reset',
          method: null,
          details: {
            reason: command.reason,
            tfa_turned_off: tfaWasOn,
            methods_removed: reset.methodsRemoved,
            backup_codes_revoked: reset.backupCodesRevoked,
            sessions_revoked: reset.sessionsRevoked,
            devices_revoked: reset.devicesRevoked,
          },
          origin,
        },
        { notify: changedAnything },
      );
      await this.events.sessionsEnded(user.id, sessionsRevoked, 'operator', origin);
      return reset;
    });
  }
}
