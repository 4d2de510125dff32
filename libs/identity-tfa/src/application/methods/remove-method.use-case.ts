import { Injectable } from '@nestjs/common';
import { SessionRevocation, User, UserRepository } from '@app/accounts';
import { Clock, RequestOrigin, UnitOfWork } from '@app/platform';
import { TFA_ERROR_MESSAGES } from '../../domain/error-messages';
import { TfaError } from '../../domain/errors';
import { DeviceTrust, SecurityEventLog } from '@app/account-security';
import { BackupCodeRepository } from '../ports/backup-code.repository.port';
import { TfaMethodRepository } from '../ports/tfa-method.repository.port';
import {
  FactorInput,
  SecondFactorVerifier,
  Verified,
} from '../verification/second-factor-verifier.service';
import { TfaUserLookup } from '../login/tfa-user-lookup.service';

export interface RemoveMethodCommand {
  userId: number;
  factor: FactorInput;
  /** The method to remove; defaults to the one that verified. */
  targetId?: number;
  /** The caller's own session, which stays; every other session of the user ends. */
  keepSessionId?: number;
  origin: RequestOrigin;
}

export type RemoveMethodResult = { disabled: true } | { disabled: false; remainingMethods: number };

/**
 * DELETE /tfa/: verified removal of one method. Removing the last one (or any removal on
 * a legacy account) disables 2FA; the backup codes are soft-deleted with it. The user's
 * other sessions end and every trusted device is revoked in the same transaction, which
 * also records the events (method_removed, and tfa_disabled when 2FA ends).
 */
@Injectable()
export class RemoveMethodUseCase {
  constructor(
    private readonly lookup: TfaUserLookup,
    private readonly methods: TfaMethodRepository,
    private readonly backupCodes: BackupCodeRepository,
    private readonly users: UserRepository,
    private readonly verifier: SecondFactorVerifier,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly sessions: SessionRevocation,
    private readonly events: SecurityEventLog,
    private readonly devices: DeviceTrust,
  ) {}

  async execute(command: RemoveMethodCommand): Promise<RemoveMethodResult> {
    if (command.factor.backupCode !== undefined && command.targetId === undefined)
      throw new TfaError('bad_request', 'Invalid request: target_id is required with backup_code');
    const user = await this.lookup.user(command.userId);
    const owned = await this.methods.listByUser(user.id);
    if (command.targetId !== undefined && !owned.some((m) => m.id === command.targetId))
      throw new TfaError('not_found', TFA_ERROR_MESSAGES.noSuchMethod(command.targetId));
    // Email is never a method: nothing to default the target to. Refused before any code
    // is compared or spent.
    const legacyOnly = owned.length === 0 && user.tfaStatus === 'legacy';
    if (command.targetId === undefined && command.factor.tfaMethod === 'email' && !legacyOnly)
      throw new TfaError('bad_request', TFA_ERROR_MESSAGES.targetRequired);
    // The removal commits with the spending of the factor: a failure leaves the code usable.
    const { origin } = command;
    const options = {
      purposes: ['verify' as const],
      failure: '2fa_verification_failed' as const,
      origin,
    };
    const { result } = await this.verifier.verifyAndThen(
      user,
      command.factor,
      options,
      async (verified) => {
        const ended = await this.sessions.revokeOthers(user.id, command.keepSessionId);
        const removed = await this.remove(user, owned.length, verified, command.targetId, origin);
        await this.events.sessionsEnded(user.id, ended, 'tfa_change', origin);
        await this.devices.revokeAll(user.id, 'tfa_change', origin);
        return removed;
      },
    );
    return result;
  }

  private async remove(
    user: User,
    ownedCount: number,
    verified: Verified,
    requestedTarget: number | undefined,
    origin: RequestOrigin,
  ): Promise<RemoveMethodResult> {
    if (ownedCount === 0 && user.tfaStatus === 'legacy') {
      // Legacy accounts have no method rows and no backup codes: only the flag goes.
      await this.users.setTfaState(user.id, false, 'disabled');
      await this.events.record({
        userId: user.id,
        kind: 'tfa_disabled',
        method: 'sms',
        details: { legacy: true },
        origin,
      });
      return { disabled: true };
    }
    const targetId =
      requestedTarget ?? (verified.kind === 'method' ? verified.method?.id : undefined);
    if (targetId === undefined)
      throw new TfaError('bad_request', TFA_ERROR_MESSAGES.targetRequired);
    return this.uow.run(async () => {
      const target = await this.methods.findById(targetId);
      if (!target || target.userId !== user.id)
        throw new TfaError('not_found', TFA_ERROR_MESSAGES.noSuchMethod(targetId));
      await this.methods.delete(target.id);
      const remaining = await this.methods.listByUser(user.id);
      const removed = { userId: user.id, method: target.type, origin };
      // One change, one email: when the removal turns 2FA off, tfa_disabled's says both.
      await this.events.record(
        { ...removed, kind: 'method_removed', details: { method_id: target.id } },
        { notify: remaining.length > 0 },
      );
      if (remaining.length === 0) {
        await this.backupCodes.softDeleteAll(user.id, this.clock.now());
        await this.users.setTfaState(user.id, false, 'disabled');
        await this.events.record({ ...removed, kind: 'tfa_disabled', details: {} });
        return { disabled: true as const };
      }
      if (target.isPrimary && !remaining.some((m) => m.isPrimary))
        await this.methods.makeOnlyPrimary(user.id, remaining[0].id);
      return { disabled: false as const, remainingMethods: remaining.length };
    });
  }
}
