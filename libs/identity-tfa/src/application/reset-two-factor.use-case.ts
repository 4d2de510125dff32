import { Injectable } from '@nestjs/common';
import { SessionRevocation, UserRepository } from '@app/accounts';
import { Clock, OPERATOR_ORIGIN, UnitOfWork } from '@app/platform';
import { TFA_ERROR_MESSAGES } from '../domain/error-messages';
import { TfaError } from '../domain/errors';
import { resetReasonProblem } from '../domain/security-event';
import { DeviceTrust } from './device-trust.service';
import { BackupCodeRepository } from './ports/backup-code.repository.port';
import { TfaMethodRepository } from './ports/tfa-method.repository.port';
import { SecurityEventLog } from './security-event-log.service';

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
    private readonly methods: TfaMethodRepository,
    private readonly backupCodes: BackupCodeRepository,
    private readonly sessions: SessionRevocation,
    private readonly devices: DeviceTrust,
    private readonly events: SecurityEventLog,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(command: ResetTwoFactorCommand): Promise<TwoFactorReset> {
    const problem = resetReasonProblem(command.reason);
    if (problem) throw new TfaError('bad_request', problem);
    const user = await this.users.findById(command.userId);
    if (!user) throw new TfaError('not_found', TFA_ERROR_MESSAGES.noSuchUser(command.userId));
    const origin = OPERATOR_ORIGIN;
    return this.uow.run(async () => {
      const methods = await this.methods.listByUser(user.id);
      for (const method of methods) await this.methods.delete(method.id);
      const backupCodesRevoked = await this.backupCodes.countUnused(user.id);
      await this.backupCodes.softDeleteAll(user.id, this.clock.now());
      await this.users.setTfaState(user.id, false, 'disabled');
      const sessionsRevoked = await this.sessions.revokeAll(user.id);
      const devicesRevoked = await this.devices.revokeAll(user.id, 'operator', origin);
      const reset = {
        methodsRemoved: methods.length,
        backupCodesRevoked,
        sessionsRevoked,
        devicesRevoked,
      };
      await this.events.record({
        userId: user.id,
        kind: 'admin_reset',
        method: null,
        details: {
          reason: command.reason,
          methods_removed: reset.methodsRemoved,
          backup_codes_revoked: reset.backupCodesRevoked,
          sessions_revoked: reset.sessionsRevoked,
          devices_revoked: reset.devicesRevoked,
        },
        origin,
      });
      await this.events.sessionsEnded(user.id, sessionsRevoked, 'operator', origin);
      return reset;
    });
  }
}
