import { Injectable } from '@nestjs/common';
import { SecondFactorMethod, User, UserRepository } from '@app/accounts';
import { Clock, RequestOrigin, SecretKeeper, UnitOfWork } from '@app/platform';
import { TFA_ERROR_MESSAGES } from '../../domain/error-messages';
import { TfaError } from '../../domain/errors';
import {
  defaultLabel,
  TfaMethod,
  totpSecretAad,
  VerificationChannel,
} from '../../domain/tfa-method';
import { isValidTotpSecret, matchTotpStep } from '../../domain/totp';
import { AddMethodGate } from './add-method-gate.service';
import { BackupCodeIssuer } from '../backup-codes/backup-code-issuer.service';
import { ChallengeService } from '../challenges/challenge.service';
import { SecondFactorVerifier } from '../verification/second-factor-verifier.service';
import { MethodRecords } from './method-records.service';
import { TfaMethodRepository } from '../ports/tfa-method.repository.port';
import { SecurityEventLog } from '@app/account-security';
import { TfaUserLookup } from '../login/tfa-user-lookup.service';

export interface ConfirmNewMethodCommand {
  userId: number;
  tfaMethod: VerificationChannel;
  code?: string;
  secret: string;
  phoneNumber?: string;
  label?: string;
  /** The deprecated test-submit path: legacy accounts must regenerate backup codes first. */
  rejectLegacy?: boolean;
  origin: RequestOrigin;
}

export interface ConfirmedMethod {
  method: SecondFactorMethod;
  /** The first method of an account comes with its backup codes (shown once). */
  backupCodes?: string[];
}

/** The stored method, before it is described with its channel's failures. */
interface StoredMethod {
  method: TfaMethod;
  backupCodes?: string[];
}

/**
 * POST confirm-new: inside the authorization window, proves the new factor (a code from
 * the app for the base32 secret, or the SMS code sent to the new number) and stores it.
 * One method per type: the unique index makes parallel confirmations yield exactly one.
 * The method is stored with its events (method_added; tfa_enabled for the first one).
 */
@Injectable()
export class ConfirmNewMethodUseCase {
  constructor(
    private readonly lookup: TfaUserLookup,
    private readonly methods: TfaMethodRepository,
    private readonly users: UserRepository,
    private readonly gate: AddMethodGate,
    private readonly challenges: ChallengeService,
    private readonly verifier: SecondFactorVerifier,
    private readonly backupCodes: BackupCodeIssuer,
    private readonly records: MethodRecords,
    private readonly uow: UnitOfWork,
    private readonly secrets: SecretKeeper,
    private readonly clock: Clock,
    private readonly events: SecurityEventLog,
  ) {}

  async execute(request: ConfirmNewMethodCommand): Promise<ConfirmedMethod> {
    // One rule on every route: a missing code is missing_auth_value.
    if (!request.code) throw new TfaError('missing_code', TFA_ERROR_MESSAGES.codeRequired);
    const command = { ...request, code: request.code };
    if (command.tfaMethod === 'email')
      throw new TfaError('invalid_tfa_method', 'Email cannot be added as a 2FA method.');
    const user = await this.lookup.user(command.userId);
    if (command.rejectLegacy && user.tfaStatus === 'legacy')
      throw new TfaError(
        'untracked_2fa_found',
        'This account uses legacy 2FA: call regen-backup-codes first to migrate it.',
      );
    await this.gate.require(user.id);
    const existing = await this.methods.listByUser(user.id);
    if (existing.some((m) => m.type === command.tfaMethod))
      throw new TfaError(
        'duplicate_tfa_method',
        TFA_ERROR_MESSAGES.duplicateMethod(command.tfaMethod),
      );
    const first = existing.length === 0;
    const stored =
      command.tfaMethod === 'totp'
        ? await this.addTotp(user, command, first)
        : await this.addSms(user, command, first);
    return { ...stored, method: await this.records.describe(user.id, stored.method) };
  }

  private async addTotp(
    user: User,
    command: ConfirmNewMethodCommand & { code: string },
    first: boolean,
  ): Promise<StoredMethod> {
    const secret = command.secret.toUpperCase().replace(/[\s=]/g, '');
    if (!isValidTotpSecret(secret))
      throw new TfaError(
        'bad_request',
        'Invalid request: secret must be the base32 secret from totp-setup',
      );
    const step = matchTotpStep(secret, command.code, this.clock.nowMs(), (a, b) =>
      this.secrets.equal(a, b),
    );
    if (step === null) throw new TfaError('2fa_verification_failed', 'Invalid authenticator code.');
    return this.store(user, first, command.origin, {
      type: 'totp',
      label: command.label ?? defaultLabel('totp', null),
      phoneNumber: null,
      // The enrollment code counts as used: it cannot be replayed for a login.
      lastTotpStep: step,
      secret,
    });
  }

  private async addSms(
    user: User,
    command: ConfirmNewMethodCommand & { code: string },
    first: boolean,
  ): Promise<StoredMethod> {
    if (!command.phoneNumber)
      throw new TfaError('missing_phone_number', 'phone_number is required for an SMS method.');
    const challenge = await this.challenges.load(command.secret);
    if (
      challenge.userId !== user.id ||
      challenge.purpose !== 'verify' ||
      challenge.channel !== 'sms'
    )
      throw new TfaError('challenge_not_found', 'No SMS challenge matches this secret.');
    if (challenge.destination !== command.phoneNumber)
      throw new TfaError('phone_number_mismatch', TFA_ERROR_MESSAGES.codeSentElsewhere);
    const phoneNumber = command.phoneNumber;
    // The method is stored in the transaction that spends the code: both or neither.
    return this.verifier.verifyNewNumberCode(user, challenge, command.code, command.origin, () =>
      this.store(user, first, command.origin, {
        type: 'sms',
        label: command.label ?? defaultLabel('sms', phoneNumber),
        phoneNumber,
        lastTotpStep: null,
        secret: null,
      }),
    );
  }

  private async store(
    user: User,
    first: boolean,
    origin: RequestOrigin,
    spec: Pick<TfaMethod, 'type' | 'label' | 'phoneNumber' | 'lastTotpStep'> & {
      secret: string | null;
    },
  ): Promise<StoredMethod> {
    return this.uow.run(async () => {
      const created = await this.methods.create({
        userId: user.id,
        type: spec.type,
        label: spec.label,
        phoneNumber: spec.phoneNumber,
        isPrimary: first,
        lastTotpStep: spec.lastTotpStep,
      });
      if (!created)
        throw new TfaError('duplicate_tfa_method', TFA_ERROR_MESSAGES.duplicateMethod(spec.type));
      if (spec.secret) {
        created.totpSecretCiphertext = this.secrets.encrypt(spec.secret, totpSecretAad(created.id));
        await this.methods.setTotpSecret(created.id, created.totpSecretCiphertext);
      }
      const event = { userId: user.id, method: spec.type, origin };
      await this.events.record({
        ...event,
        kind: 'method_added',
        details: { method_id: created.id },
      });
      if (!first) return { method: created };
      await this.users.setTfaState(user.id, true, 'enabled');
      await this.events.record({ ...event, kind: 'tfa_enabled', details: {} });
      return { method: created, backupCodes: await this.backupCodes.issue(user.id) };
    });
  }
}
