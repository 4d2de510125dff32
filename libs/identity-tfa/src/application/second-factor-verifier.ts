import { TfaError } from '../domain/errors';
import { Injectable } from '@nestjs/common';
import { User } from '@app/accounts';
import { Clock, DomainError, Metrics, SecretKeeper, UnitOfWork } from '@app/platform';
import { normalizeBackupCode } from '../domain/backup-codes';
import { Challenge, ChallengePurpose } from '../domain/challenge';
import { TfaMethod, totpSecretAad, VerificationChannel } from '../domain/tfa-method';
import { matchTotpStep } from '../domain/totp';
import {
  activeLock,
  channelView,
  FailureChannel,
  recordFailure,
  recordSuccess,
} from '../domain/verification-failures';
import { ChallengeService } from './challenge.service';
import { BackupCodeRepository } from './ports/backup-code.repository.port';
import { TfaMethodRepository } from './ports/tfa-method.repository.port';
import { VerificationLedger } from './ports/verification-ledger.port';
import { lockedError, tfaError, verificationFailed } from './tfa-errors';

export const BACKUP_CODE_PURPOSE = 'tfa-backup-code';

export function backupCodeDigest(secrets: SecretKeeper, userId: number, normalized: string) {
  return secrets.fingerprint(BACKUP_CODE_PURPOSE, `${userId}:${normalized}`);
}

/** Every digest a backup code may be stored under (codes made before a key rotation too). */
export function backupCodeDigests(secrets: SecretKeeper, userId: number, normalized: string) {
  return secrets.fingerprints(BACKUP_CODE_PURPOSE, `${userId}:${normalized}`);
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
  /**
   * A challenge that a success uses up besides the factor itself: the login secret of
   * a TOTP or backup-code login, the authorization of a TOTP authorize-new-method.
   */
  alsoSpend?: Challenge | null;
}

export type Verified =
  | { kind: 'method'; channel: VerificationChannel; method: TfaMethod | null }
  | { kind: 'backup_code'; remaining: number };

/**
 * What must happen exactly when the factor is spent (the login's session, the removal,
 * the new backup codes). It commits in one database transaction with the spending of the
 * factor, so a failure of either leaves both undone and the code usable.
 */
export type OnVerified<T> = (verified: Verified) => Promise<T>;

type Comparison = 'match' | 'wrong' | 'replay';

/** One verification, resolved and validated, ready to compare under the user's lock. */
interface Attempt {
  channel: FailureChannel;
  verified: () => Promise<Verified>;
  /**
   * Compares; 'replay' for a code accepted before (never counted). Backup codes and TOTP
   * steps are spent by the comparison itself; the transaction undoes that if what follows fails.
   */
  compare: (nowMs: number) => Promise<Comparison>;
  /** Spends what the comparison did not; false when it turns out to be spent already. */
  spend: () => Promise<boolean>;
  /** Retires what was spent outside the database, once the transaction committed. */
  retire?: () => Promise<void>;
  wrong: (failCount: number) => DomainError;
  replay: (view: { failCount: number; lockedUntilMs: number | null }) => DomainError;
}

type Outcome<T> =
  | { kind: 'accepted'; verified: Verified; result: T }
  /** Refused under the lock; the transaction commits whatever was counted. */
  | { kind: 'refused'; error: DomainError };

/**
 * The one second-factor check of login, removal, regeneration and authorization.
 *
 * Everything that can refuse a request without looking at the code (shape, method,
 * challenge, ownership) is checked first and costs nothing. Then, under a lock held on
 * the user's failure ledger for one database transaction, the code is compared, a wrong
 * code is counted against its channel, and a right one is spent in the same transaction
 * as the action it authorises. So: at most the budget of wrong codes is ever compared,
 * whatever the parallelism; of N requests with one correct code exactly one succeeds;
 * a replayed code is refused without being counted; and a failed action spends nothing.
 * docs/identity-tfa.md, "Counting failures", gives the numbers.
 */
@Injectable()
export class SecondFactorVerifier {
  constructor(
    private readonly methods: TfaMethodRepository,
    private readonly backupCodes: BackupCodeRepository,
    private readonly challenges: ChallengeService,
    private readonly ledger: VerificationLedger,
    private readonly secrets: SecretKeeper,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
    private readonly unitOfWork: UnitOfWork,
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
    const label = input.backupCode !== undefined ? 'backup_code' : (input.tfaMethod ?? 'auto');
    return this.counted(label, async () =>
      this.run(user.id, await this.prepare(user, input, options), options, then),
    );
  }

  /**
   * The PUT step of authorize-new-method: the code of an `authorize` challenge (SMS,
   * email, or a TOTP code when the challenge names the authenticator app).
   */
  async verifyAuthorizationCode<T>(
    user: User,
    challenge: Challenge,
    code: string,
    then: () => Promise<T>,
  ): Promise<T> {
    const options: VerifyOptions = { purposes: ['authorize'], failure: '2fa_verification_failed' };
    const label = challenge.channel ?? 'auto';
    const outcome = await this.counted(label, async () => {
      const method =
        challenge.methodId !== null ? await this.methods.findById(challenge.methodId) : null;
      const owned = method?.userId === user.id ? method : null;
      if (challenge.channel === 'totp') {
        if (!owned)
          throw tfaError('no_pending_authorization', 'The method of this authorization is gone.');
        const withChallenge = { ...options, alsoSpend: challenge };
        return this.run(user.id, this.totpAttempt(owned, code), withChallenge, then);
      }
      return this.run(
        user.id,
        this.challengeAttempt(challenge, code, owned, options),
        options,
        then,
      );
    });
    return outcome.result;
  }

  /**
   * confirm-new for an SMS method: the code sent to the new number, counted against the
   * user's SMS channel, spent with the creation of the method.
   */
  async verifyNewNumberCode<T>(
    user: User,
    challenge: Challenge,
    code: string,
    then: () => Promise<T>,
  ): Promise<T> {
    const options: VerifyOptions = { purposes: ['verify'], failure: '2fa_verification_failed' };
    const attempt = this.challengeAttempt(challenge, code, null, options);
    const outcome = await this.counted('sms', () =>
      this.run(
        user.id,
        { ...attempt, wrong: (n) => this.failed(n, 'Invalid SMS code.') },
        options,
        then,
      ),
    );
    return outcome.result;
  }

  /**
   * tfa_method_id wins (404 when it is not the caller's); otherwise the one method of the
   * requested type. Email never resolves to a method.
   */
  async resolveMethod(user: User, input: Pick<FactorInput, 'tfaMethod' | 'tfaMethodId'>) {
    if (input.tfaMethodId !== undefined) {
      const method = await this.methods.findById(input.tfaMethodId);
      if (!method || method.userId !== user.id)
        throw new TfaError('not_found', `No 2FA method ${input.tfaMethodId}.`);
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
      throw new TfaError(
        'bad_request',
        `tfa_method_id is required: several ${type} methods exist.`,
      );
    return candidates[0] ?? null;
  }

  private async counted<R extends { verified: Verified }>(
    label: string,
    work: () => Promise<R>,
  ): Promise<R> {
    try {
      const outcome = await work();
      const { verified } = outcome;
      this.count(verified.kind === 'backup_code' ? 'backup_code' : verified.channel, 'success');
      return outcome;
    } catch (error) {
      this.count(label, error instanceof DomainError ? error.code : 'error');
      throw error;
    }
  }

  private count(method: string, outcome: string): void {
    this.metrics.increment('tfa_verifications_total', { method, outcome });
  }

  /** Resolves the factor and refuses what needs no comparison; nothing is counted here. */
  private async prepare(user: User, input: FactorInput, options: VerifyOptions): Promise<Attempt> {
    if (input.backupCode !== undefined) return this.backupCodeAttempt(user, input.backupCode);
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
      return this.totpAttempt(method, code);
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
      return this.challengeAttempt(challenge, code, null, options);
    }
    const smsMethod =
      method ??
      (challenge.methodId !== null ? await this.methods.findById(challenge.methodId) : null);
    if (smsMethod && smsMethod.userId === user.id) {
      if (smsMethod.phoneNumber !== challenge.destination)
        throw tfaError('phone_number_mismatch', 'The code was sent to a different phone number.');
      return this.challengeAttempt(challenge, code, smsMethod, options);
    }
    // Legacy accounts: 2FA by SMS to the phone on the user record, no method row.
    if (
      user.tfaStatus === 'legacy' &&
      user.phoneNumber &&
      challenge.destination === user.phoneNumber
    )
      return this.challengeAttempt(challenge, code, null, options);
    throw this.noContext(options, 'No SMS 2FA method is configured for this phone number.');
  }

  private backupCodeAttempt(user: User, given: string): Attempt {
    const normalized = normalizeBackupCode(given);
    if (normalized === null)
      throw new TfaError('bad_request', 'Invalid request: backup_code must be XXXX-XXXX-XXXX');
    const digests = backupCodeDigests(this.secrets, user.id, normalized);
    return {
      channel: 'backup_code',
      verified: async () => ({
        kind: 'backup_code',
        remaining: await this.backupCodes.countUnused(user.id),
      }),
      // The row lock of the consuming UPDATE decides; it commits or rolls back with `then`.
      compare: async () => {
        for (const digest of digests)
          if (await this.backupCodes.consume(user.id, digest, this.clock.now())) return 'match';
        for (const digest of digests)
          if (await this.backupCodes.wasUsed(user.id, digest)) return 'replay';
        return 'wrong';
      },
      spend: async () => true,
      wrong: () => tfaError('invalid_backup_code', 'Invalid backup code.'),
      replay: () => tfaError('invalid_backup_code', 'This backup code was already used.'),
    };
  }

  private totpAttempt(method: TfaMethod, code: string): Attempt {
    const secret = method.totpSecretCiphertext
      ? this.secrets.decrypt(method.totpSecretCiphertext, totpSecretAad(method.id))
      : null;
    if (!secret)
      throw tfaError(
        'tfa_method_not_configured',
        'The authenticator app secret cannot be read: remove and set up the method again.',
      );
    return {
      channel: 'totp',
      verified: async () => ({ kind: 'method', channel: 'totp', method }),
      // The compare-and-set of the last accepted step decides, as the consuming UPDATE does
      // for backup codes; it commits or rolls back with `then`. A step at or below the last
      // accepted one was used already (RFC 6238 §5.2).
      compare: async (nowMs) => {
        const step = matchTotpStep(secret, code, nowMs, (a, b) => this.secrets.equal(a, b));
        if (step === null) return 'wrong';
        return (await this.methods.advanceTotpStep(method.id, step)) ? 'match' : 'replay';
      },
      spend: async () => {
        await this.methods.recordUse(method.id, this.clock.now());
        return true;
      },
      wrong: (failCount) => this.failed(failCount),
      // Reported like a wrong code of the method, with its count, which a replay leaves as it is.
      replay: (view) =>
        verificationFailed(
          view,
          'This code was already used: wait for the next code of your authenticator app.',
        ),
    };
  }

  private challengeAttempt(
    challenge: Challenge,
    code: string,
    method: TfaMethod | null,
    options: VerifyOptions,
  ): Attempt {
    const channel = challenge.channel === 'email' ? 'email' : 'sms';
    return {
      channel,
      verified: async () => ({ kind: 'method', channel, method }),
      compare: async () => {
        if (await this.ledger.isChallengeSpent(challenge.id)) return 'replay';
        return this.challenges.codeMatches(challenge, code) ? 'match' : 'wrong';
      },
      spend: async () => {
        if (
          !(await this.ledger.markChallengeSpent(challenge.id, challenge.userId, this.clock.now()))
        )
          return false;
        if (method) await this.methods.recordUse(method.id, this.clock.now());
        return true;
      },
      retire: () => this.challenges.retire(challenge),
      // A configured method's failures are reported with its count (the spec's body).
      wrong: (failCount) =>
        method || options.failure === '2fa_verification_failed'
          ? this.failed(failCount)
          : tfaError('2fa_login_failed', 'Invalid verification code.'),
      replay: () => this.spentChallenge(),
    };
  }

  /**
   * Compares under the user's lock and spends with `then`, in one transaction. A wrong
   * code's count commits on its own (the transaction ends normally, then the error is
   * thrown), so a failure stays counted.
   */
  private async run<T>(
    userId: number,
    attempt: Attempt,
    options: VerifyOptions,
    then: OnVerified<T>,
  ): Promise<{ verified: Verified; result: T }> {
    const extra = options.alsoSpend ?? null;
    const outcome = await this.unitOfWork
      .run(async (): Promise<Outcome<T>> => {
        const ledger = await this.ledger.lockAndLoad(userId);
        const nowMs = this.clock.nowMs();
        const refused = (error: DomainError) => ({ kind: 'refused' as const, error });
        const lock = activeLock(ledger, attempt.channel, nowMs);
        if (lock) return refused(lockedError(lock.failCount, lock.lockedUntilMs));
        if (extra && (await this.ledger.isChallengeSpent(extra.id)))
          return refused(this.spentChallenge());
        const comparison = await attempt.compare(nowMs);
        if (comparison === 'replay')
          return refused(attempt.replay(channelView(ledger, attempt.channel, nowMs)));
        if (comparison === 'wrong') {
          const recorded = recordFailure(ledger, attempt.channel, nowMs);
          await this.ledger.save(userId, recorded.ledger);
          if (!recorded.lock) return refused(attempt.wrong(recorded.failCount));
          this.metrics.increment('tfa_lockouts_total', { method: attempt.channel });
          return refused(lockedError(recorded.lock.failCount, recorded.lock.lockedUntilMs));
        }
        const spent =
          (await attempt.spend()) &&
          (!extra || (await this.ledger.markChallengeSpent(extra.id, userId, this.clock.now())));
        // Cannot happen under the lock; if it did, the rollback undoes a partial spend.
        if (!spent) throw new SpentMeanwhile(this.spentChallenge());
        const verified = await attempt.verified();
        const result = await then(verified);
        if (ledger.channels[attempt.channel]?.failuresMs.length)
          await this.ledger.save(userId, recordSuccess(ledger, attempt.channel));
        return { kind: 'accepted', verified, result };
      })
      .catch((error: unknown): Outcome<T> => {
        if (error instanceof SpentMeanwhile) return { kind: 'refused', error: error.refusal };
        throw error;
      });
    if (outcome.kind === 'refused') throw outcome.error;
    await attempt.retire?.();
    if (extra) await this.challenges.retire(extra);
    return { verified: outcome.verified, result: outcome.result };
  }

  private failed(failCount: number, msg = 'Invalid verification code.'): DomainError {
    return verificationFailed({ failCount, lockedUntilMs: null }, msg);
  }

  private spentChallenge(): DomainError {
    return tfaError('no_challenge_found', 'This code was already used; request a new one.');
  }

  private noContext(options: VerifyOptions, msg: string): DomainError {
    return options.failure === '2fa_login_failed'
      ? tfaError('2fa_login_failed', msg)
      : verificationFailed(null, msg);
  }
}

/** A factor spent by another request between the comparison and the spending. */
class SpentMeanwhile extends Error {
  constructor(readonly refusal: DomainError) {
    super(refusal.message);
  }
}
