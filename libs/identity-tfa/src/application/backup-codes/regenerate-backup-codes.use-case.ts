import { Injectable } from '@nestjs/common';
import { SessionRevocation, UserRepository } from '@app/accounts';
import { RequestOrigin, UnitOfWork } from '@app/platform';
import { TfaError } from '../../domain/errors';
import { defaultLabel } from '../../domain/tfa-method';
import { BackupCodeIssuer } from './backup-code-issuer.service';
import { DeviceTrust, SecurityEventLog } from '@app/account-security';
import { TfaMethodRepository } from '../ports/tfa-method.repository.port';
import { FactorInput, SecondFactorVerifier } from '../verification/second-factor-verifier.service';
import { TfaUserLookup } from '../login/tfa-user-lookup.service';

export interface RegenerateBackupCodesCommand {
  userId: number;
  factor: FactorInput;
  /** The caller's own session, which stays; every other session of the user ends. */
  keepSessionId?: number;
  origin: RequestOrigin;
}

/**
 * PUT regen-backup-codes: a verified request replaces the whole set. An account with 2FA
 * on but no method rows (legacy) first gets its SMS method backfilled from the phone on file.
 * The user's other sessions end and every trusted device is revoked in the same
 * transaction, which records backup_codes_regenerated.
 */
@Injectable()
export class RegenerateBackupCodesUseCase {
  constructor(
    private readonly lookup: TfaUserLookup,
    private readonly methods: TfaMethodRepository,
    private readonly users: UserRepository,
    private readonly verifier: SecondFactorVerifier,
    private readonly issuer: BackupCodeIssuer,
    private readonly uow: UnitOfWork,
    private readonly sessions: SessionRevocation,
    private readonly events: SecurityEventLog,
    private readonly devices: DeviceTrust,
  ) {}

  /** Answers the new set of backup codes, in plaintext (shown once). */
  async execute(command: RegenerateBackupCodesCommand): Promise<string[]> {
    const user = await this.lookup.user(command.userId);
    if (!user.tfaEnabled)
      throw new TfaError('2fa_verification_failed', 'Two-factor authentication is not enabled.');
    // The new set is issued in the transaction that spends the factor: both or neither.
    const { origin } = command;
    const options = {
      purposes: ['verify' as const],
      failure: '2fa_verification_failed' as const,
      origin,
    };
    const { result } = await this.verifier.verifyAndThen(user, command.factor, options, () =>
      this.uow.run(async () => {
        const existing = await this.methods.listByUser(user.id);
        if (existing.length === 0 && user.tfaEnabled) {
          if (!user.phoneNumber)
            throw new TfaError(
              'missing_phone_number',
              'No phone number on file to backfill an SMS method.',
            );
          const backfilled = await this.methods.create({
            userId: user.id,
            type: 'sms',
            label: defaultLabel('sms', user.phoneNumber),
            phoneNumber: user.phoneNumber,
            isPrimary: true,
            lastTotpStep: null,
          });
          await this.users.setTfaState(user.id, true, 'enabled');
          await this.events.record({
            userId: user.id,
            kind: 'method_added',
            method: 'sms',
            details: { method_id: backfilled?.id ?? null, legacy_backfill: true },
            origin,
          });
        }
        const ended = await this.sessions.revokeOthers(user.id, command.keepSessionId);
        const codes = await this.issuer.issue(user.id);
        await this.events.record({
          userId: user.id,
          kind: 'backup_codes_regenerated',
          method: 'backup_code',
          details: {},
          origin,
        });
        await this.events.sessionsEnded(user.id, ended, 'tfa_change', origin);
        await this.devices.revokeAll(user.id, 'tfa_change', origin);
        return codes;
      }),
    );
    return result;
  }
}
