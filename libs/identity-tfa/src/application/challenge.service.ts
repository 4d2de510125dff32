import { Injectable } from '@nestjs/common';
import { Clock, RandomSource, SecretKeeper } from '@app/platform';
import { Challenge, ChallengeChannel, ChallengePurpose, isExpired } from '../domain/challenge';
import { TFA_POLICY } from '../domain/tfa-policy';
import { ChallengeStore } from './ports/challenge.store.port';
import { CodeDeliveryQueue } from './ports/code-delivery.queue.port';
import { tfaError } from './tfa-errors';

const SECRET_PURPOSE = 'tfa-secret';
const CODE_PURPOSE = 'tfa-code';

/** Extra time a challenge record stays readable after expiry, to answer 2fa_expired. */
const RECORD_TTL_MS = TFA_POLICY.challengeLifetimeMs;

/** Binds the encrypted delivery copy of a code to its challenge. */
export function codeAad(key: string): string {
  return `tfa-challenge:${key}`;
}

/**
 * tfa_secrets and their challenges: issuing (128-bit CSPRNG secrets, stored only as a
 * fingerprint), sending codes through the delivery queue, and checking codes with the
 * per-challenge attempt budget.
 */
@Injectable()
export class ChallengeService {
  constructor(
    private readonly store: ChallengeStore,
    private readonly queue: CodeDeliveryQueue,
    private readonly secrets: SecretKeeper,
    private readonly random: RandomSource,
    private readonly clock: Clock,
  ) {}

  keyOf(secret: string): string {
    return this.secrets.fingerprint(SECRET_PURPOSE, secret);
  }

  async open(
    userId: number,
    purpose: ChallengePurpose,
    extra: Partial<Pick<Challenge, 'channel' | 'methodId' | 'destination'>> = {},
  ): Promise<{ secret: string; challenge: Challenge }> {
    const secret = this.random.token(TFA_POLICY.secretBits);
    const challenge: Challenge = {
      key: this.keyOf(secret),
      userId,
      purpose,
      channel: extra.channel ?? null,
      destination: extra.destination ?? null,
      methodId: extra.methodId ?? null,
      codeDigest: null,
      attempts: 0,
      sends: 0,
      createdAtMs: this.clock.nowMs(),
    };
    await this.store.create(challenge, RECORD_TTL_MS);
    return { secret, challenge };
  }

  /**
   * The active challenge behind a secret.
   * @throws challenge_not_found (never issued), no_challenge_found (used or discarded),
   *         2fa_expired (older than 10 minutes)
   */
  async load(secret: string): Promise<Challenge> {
    const found = await this.store.find(this.keyOf(secret));
    if (found.state === 'unknown')
      throw tfaError('challenge_not_found', 'No challenge matches this secret.');
    if (found.state === 'cleared')
      throw tfaError(
        'no_challenge_found',
        'This challenge is no longer active; request a new code.',
      );
    if (found.state === 'expired' || isExpired(found.challenge, this.clock.nowMs()))
      throw tfaError('2fa_expired', 'The verification code has expired; request a new one.');
    return found.challenge;
  }

  /** Sends a fresh code on the challenge (a new code replaces any earlier one). */
  async sendCode(
    challenge: Challenge,
    channel: Extract<ChallengeChannel, 'sms' | 'email'>,
    destination: string,
    methodId: number | null,
  ): Promise<void> {
    if (challenge.sends >= TFA_POLICY.maxSendsPerChallenge)
      throw tfaError(
        'sms_rate_limited',
        'Too many codes requested for this challenge; start over.',
      );
    const code = this.random.digits(TFA_POLICY.codeDigits);
    const stored = await this.store.attachCode(challenge.key, {
      channel,
      destination,
      methodId,
      codeDigest: this.digest(challenge.key, code),
      codeCiphertext: this.secrets.encrypt(code, codeAad(challenge.key)),
    });
    if (stored === null)
      throw tfaError(
        'no_challenge_found',
        'This challenge is no longer active; request a new code.',
      );
    Object.assign(challenge, { channel, destination, methodId, sends: stored });
    await this.queue.enqueue({ challengeKey: challenge.key, sendNumber: stored });
  }

  /**
   * Counts the attempt first (atomically), then compares in constant time. The attempt
   * that exceeds the budget discards the challenge.
   */
  async checkCode(challenge: Challenge, code: string): Promise<boolean> {
    const attempts = await this.store.recordAttempt(challenge.key);
    if (attempts === null)
      throw tfaError(
        'no_challenge_found',
        'This challenge is no longer active; request a new code.',
      );
    if (attempts > TFA_POLICY.maxChallengeAttempts) {
      await this.store.consume(challenge.key);
      throw tfaError('no_challenge_found', 'Too many wrong codes: request a new code.');
    }
    if (!challenge.codeDigest) return false;
    const matches = this.secrets.equal(this.digest(challenge.key, code), challenge.codeDigest);
    if (!matches && attempts === TFA_POLICY.maxChallengeAttempts)
      await this.store.consume(challenge.key);
    return matches;
  }

  /** Counts an attempt on a challenge that carries no code (TOTP or backup via a login secret). */
  async countAttempt(challenge: Challenge): Promise<void> {
    const attempts = await this.store.recordAttempt(challenge.key);
    if (attempts === null || attempts > TFA_POLICY.maxChallengeAttempts) {
      await this.store.consume(challenge.key);
      throw tfaError('no_challenge_found', 'This challenge is no longer active; start over.');
    }
  }

  /** Single use: exactly one caller consumes a challenge. */
  async consume(challenge: Challenge): Promise<void> {
    if (!(await this.store.consume(challenge.key)))
      throw tfaError('no_challenge_found', 'This challenge was already used.');
  }

  private digest(key: string, code: string): string {
    return this.secrets.fingerprint(CODE_PURPOSE, `${key}:${code}`);
  }
}
