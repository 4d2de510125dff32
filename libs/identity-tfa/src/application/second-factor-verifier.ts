import { Injectable, Optional } from '@nestjs/common';
import { User } from '@app/accounts';
import { Clock, DomainError, Metrics, SecretKeeper, UnitOfWork } from '@app/platform';
import { normalizeBackupCode } from '../domain/backup-codes';
import { Challenge, ChallengePurpose } from '../domain/challenge';
import { isLocked, TfaMethod, totpSecretAad, VerificationChannel } from '../domain/tfa-method';
import { TFA_POLICY } from '../domain/tfa-policy';
import { matchTotpStep } from '../domain/totp';
import { ChallengeService } from './challenge.service';
import { BackupCodeRepository } from './ports/backup-code.repository.port';
import { TfaMethodRepository } from './ports/tfa-method.repository.port';
import { lockedError, tfaError, verificationFailed } from './tfa-errors';

export const BACKUP_CODE_PURPOSE = 'tfa-backup-code';

export function backupCodeDigest(secrets: SecretKeeper, userId: number, normalized: string) {
  return secrets.fingerprint(BACKUP_CODE_PURPOSE, `${userId}:${normalized}`);
}

/** What the caller sent to prove the second factor. */
export interface FactorInput {
  tfaMethod?: VerificationChannel;
  tfaMethodId?: number;
  code?: string;
  secret?: string;
  backupCode?: string;
}

export interface VerifyOptions {
  /** Challenge purposes this endpoint accepts. */
  purposes: ChallengePurpose[];
  /** The code for failures without a configured method behind them. */
  failure: '2fa_login_failed' | '2fa_verification_failed';
}

export type Verified =
  | { kind: 'method'; channel: VerificationChannel; method: TfaMethod | null }
  | { kind: 'backup_code'; remaining: number };

/**
 * What must happen exactly when the factor is spent (the login's session). It commits in
 * one database transaction with the spending of a backup code or a TOTP step, so a failure
 * of either (e.g. a lost database connection) leaves both undone and the code usable.
 */
export type OnVerified<T> = (verified: Verified) => Promise<T>;

/**
 * One second-factor check shared by login, delete, regeneration and authorization:
 * method resolution, lockout (counted before comparing), TOTP replay protection,
 * single-use challenges and backup codes.
 */
@Injectable()
export class SecondFactorVerifier {
  constructor(
    private readonly methods: TfaMethodRepository,
    private readonly backupCodes: BackupCodeRepository,
    private readonly challenges: ChallengeService,
    private readonly secrets: SecretKeeper,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
    /** Absent only in in-memory unit tests, where the steps simply run in order. */
    @Optional() private readonly unitOfWork?: UnitOfWork,
  ) {}

  async verify(user: User, input: FactorInput, options: VerifyOptions): Promise<Verified> {
    return (await this.verifyAndThen(user, input, options, async () => undefined)).verified;
  }

  /** `verify`, then `then` atomically with the spending of the factor (see OnVerified). */
  async verifyAndThen<T>(
    user: User,
    input: FactorInput,
    options: VerifyOptions,
    then: OnVerified<T>,
  ): Promise<{ verified: Verified; result: T }> {
    const method = input.backupCode !== undefined ? 'backup_code' : (input.tfaMethod ?? 'auto');
    try {
      const outcome = await this.check(user, input, options, then);
      const { verified } = outcome;
      this.count(verified.kind === 'backup_code' ? 'backup_code' : verified.channel, 'success');
      return outcome;
    } catch (error) {
      this.count(method, error instanceof DomainError ? error.code : 'error');
      throw error;
    }
  }

  private count(method: string, outcome: string): void {
    this.metrics.increment('tfa_verifications_total', { method, outcome });
  }

  private async check<T>(
    user: User,
    input: FactorInput,
    options: VerifyOptions,
    then: OnVerified<T>,
  ): Promise<{ verified: Verified; result: T }> {
    if (input.backupCode !== undefined) return this.verifyBackupCode(user, input.backupCode, then);
    // Wire code missing_auth_value (400); the 401 of the same name is the auth guard's.
    const code = input.code;
    if (!code) throw tfaError('missing_code', 'A code or a backup_code is required.');
    if (input.tfaMethod === undefined && input.tfaMethodId === undefined && input.secret) {
      // An email challenge needs no tfa_method: the secret says how the code was sent.
      const challenge = await this.challenges.load(input.secret);
      if (challenge.channel === 'email') input = { ...input, tfaMethod: 'email' };
    }
    const method = await this.resolveMethod(user, input);
    const channel: VerificationChannel = method?.type ?? input.tfaMethod ?? 'sms';
    if (channel === 'totp') {
      if (!method) throw this.noContext(options, 'No authenticator app is configured.');
      const verified: Verified = { kind: 'method', channel, method };
      return { verified, result: await this.verifyTotp(method, code, () => then(verified)) };
    }
    if (!input.secret)
      throw tfaError('missing_params', `The secret of the ${channel} code is required.`);
    const challenge = await this.challenges.load(input.secret);
    if (challenge.userId !== user.id || !options.purposes.includes(challenge.purpose))
      throw tfaError('challenge_not_found', 'No challenge matches this secret.');
    if (challenge.channel !== channel)
      throw this.noContext(options, `No ${channel} code was sent for this challenge.`);
    if (channel === 'email') {
      if (challenge.destination?.toLowerCase() !== user.email.toLowerCase())
        throw this.noContext(options, 'The code was not sent to the email address on file.');
      await this.checkChallengeCode(challenge, code, null, options);
      return this.afterChallenge({ kind: 'method', channel, method: null }, then);
    }
    const smsMethod =
      method ??
      (challenge.methodId !== null ? await this.methods.findById(challenge.methodId) : null);
    if (smsMethod && smsMethod.userId === user.id) {
      if (smsMethod.phoneNumber !== challenge.destination)
        throw tfaError('phone_number_mismatch', 'The code was sent to a different phone number.');
      await this.checkChallengeCode(challenge, code, smsMethod, options);
      return this.afterChallenge({ kind: 'method', channel, method: smsMethod }, then);
    }
    // Legacy accounts: 2FA by SMS to the phone on the user record, no method row.
    if (
      user.tfaStatus === 'legacy' &&
      user.phoneNumber &&
      challenge.destination === user.phoneNumber
    ) {
      await this.checkChallengeCode(challenge, code, null, options);
      return this.afterChallenge({ kind: 'method', channel, method: null }, then);
    }
    throw this.noContext(options, 'No SMS 2FA method is configured for this phone number.');
  }

  /** The PUT step of authorize-new-method: the code of an `authorize` challenge. */
  async verifyAuthorizationCode(user: User, challenge: Challenge, code: string): Promise<void> {
    const options: VerifyOptions = { purposes: ['authorize'], failure: '2fa_verification_failed' };
    if (challenge.channel === 'totp') {
      const method =
        challenge.methodId !== null ? await this.methods.findById(challenge.methodId) : null;
      if (!method || method.userId !== user.id)
        throw tfaError('no_pending_authorization', 'The method of this authorization is gone.');
      await this.challenges.countAttempt(challenge);
      await this.verifyTotp(method, code, async () => undefined);
      await this.challenges.consume(challenge);
      return;
    }
    const method =
      challenge.methodId !== null ? await this.methods.findById(challenge.methodId) : null;
    await this.checkChallengeCode(
      challenge,
      code,
      method?.userId === user.id ? method : null,
      options,
    );
  }

  /**
   * tfa_method_id wins (404 when it is not the caller's); otherwise the one method of the
   * requested type. Email never resolves to a method.
   */
  async resolveMethod(user: User, input: Pick<FactorInput, 'tfaMethod' | 'tfaMethodId'>) {
    if (input.tfaMethodId !== undefined) {
      const method = await this.methods.findById(input.tfaMethodId);
      if (!method || method.userId !== user.id)
        throw new DomainError('not_found', `No 2FA method ${input.tfaMethodId}.`);
      if (input.tfaMethod !== undefined && input.tfaMethod !== method.type)
        throw tfaError(
          'invalid_tfa_method',
          `Method ${method.id} is not a ${input.tfaMethod} method.`,
        );
      return method;
    }
    const type = input.tfaMethod ?? 'sms';
    if (type === 'email') return null;
    const candidates = (await this.methods.listByUser(user.id)).filter((m) => m.type === type);
    if (candidates.length > 1)
      throw new DomainError(
        'bad_request',
        `tfa_method_id is required: several ${type} methods exist.`,
      );
    return candidates[0] ?? null;
  }

  private async verifyBackupCode<T>(
    user: User,
    given: string,
    then: OnVerified<T>,
  ): Promise<{ verified: Verified; result: T }> {
    const normalized = normalizeBackupCode(given);
    const invalid = () => tfaError('invalid_backup_code', 'Invalid or already used backup code.');
    if (normalized === null) throw invalid();
    return this.atomically(async () => {
      const used = await this.backupCodes.consume(
        user.id,
        backupCodeDigest(this.secrets, user.id, normalized),
        this.clock.now(),
      );
      if (!used) throw invalid();
      const verified: Verified = {
        kind: 'backup_code',
        remaining: await this.backupCodes.countUnused(user.id),
      };
      return { verified, result: await then(verified) };
    });
  }

  /**
   * A code of the authenticator app. The attempt is counted on its own (a failure must stay
   * counted); the step is spent in one transaction with `then`.
   */
  private async verifyTotp<T>(method: TfaMethod, code: string, then: () => Promise<T>): Promise<T> {
    const secret = method.totpSecretCiphertext
      ? this.secrets.decrypt(method.totpSecretCiphertext, totpSecretAad(method.id))
      : null;
    if (!secret)
      throw tfaError(
        'tfa_method_not_configured',
        'The authenticator app secret cannot be read: remove and set up the method again.',
      );
    const reservation = await this.reserve(method);
    const nowMs = this.clock.nowMs();
    const step = matchTotpStep(secret, code, nowMs, (a, b) => this.secrets.equal(a, b));
    if (step === null) throw this.failure(reservation, method);
    return this.atomically(async () => {
      // A code is accepted once: a step at or below the last accepted one is a replay.
      if (!(await this.methods.advanceTotpStep(method.id, step)))
        throw this.failure(reservation, method);
      await this.methods.recordSuccess(method.id, this.clock.now());
      return then();
    });
  }

  /**
   * A challenge code is spent in Redis, outside any database transaction, as soon as it
   * matches: it cannot join `then`. Only `then`'s own writes are made atomic.
   */
  private async afterChallenge<T>(
    verified: Verified,
    then: OnVerified<T>,
  ): Promise<{ verified: Verified; result: T }> {
    return { verified, result: await this.atomically(() => then(verified)) };
  }

  private atomically<T>(work: () => Promise<T>): Promise<T> {
    return this.unitOfWork ? this.unitOfWork.run(work) : work();
  }

  private async checkChallengeCode(
    challenge: Challenge,
    code: string,
    method: TfaMethod | null,
    options: VerifyOptions,
  ): Promise<void> {
    const reservation = method ? await this.reserve(method) : null;
    if (!(await this.challenges.checkCode(challenge, code))) {
      if (reservation && method) throw this.failure(reservation, method);
      throw options.failure === '2fa_login_failed'
        ? tfaError('2fa_login_failed', 'Invalid verification code.')
        : verificationFailed(null);
    }
    await this.challenges.consume(challenge);
    if (method) await this.methods.recordSuccess(method.id, this.clock.now());
  }

  private async reserve(method: TfaMethod) {
    const nowMs = this.clock.nowMs();
    if (isLocked(method, nowMs)) throw lockedError(method.failCount, method.lockedUntil!);
    const reservation = await this.methods.reserveAttempt(
      method.id,
      nowMs,
      TFA_POLICY.maxMethodFailures,
      TFA_POLICY.methodLockMs,
    );
    if (!reservation.admitted) throw lockedError(reservation.failCount, reservation.lockedUntil);
    return reservation;
  }

  /** The failure of an admitted attempt: the one that reached the budget reports the lock. */
  private failure(
    reservation: { failCount: number; lockedUntil: Date | null },
    method: TfaMethod,
  ): DomainError {
    if (reservation.lockedUntil && reservation.lockedUntil.getTime() > this.clock.nowMs()) {
      this.metrics.increment('tfa_lockouts_total', { method: method.type });
      return lockedError(reservation.failCount, reservation.lockedUntil);
    }
    return verificationFailed(reservation);
  }

  private noContext(options: VerifyOptions, msg: string): DomainError {
    return options.failure === '2fa_login_failed'
      ? tfaError('2fa_login_failed', msg)
      : verificationFailed(null, msg);
  }
}
