import { Injectable } from '@nestjs/common';
import { Clock, RandomSource, SecretKeeper } from '@app/platform';
import {
  activeChallenge,
  Challenge,
  ChallengeLookup,
  ChallengePurpose,
  codeAad,
  hasSendsLeft,
  isPendingSmsOf,
  lifeLeftMs,
  rekeyed,
  repeatsCode,
  SendChannel,
} from '../../domain/challenge';
import { TFA_ERROR_MESSAGES } from '../../domain/error-messages';
import { TfaError, TfaErrorCode } from '../../domain/errors';
import { TFA_POLICY } from '../../domain/tfa-policy';
import { ChallengeStore } from '../ports/challenge.store.port';
import { CodeDeliveryQueue } from '../ports/code-delivery.queue.port';

const SECRET_PURPOSE = 'tfa-secret';
const CODE_PURPOSE = 'tfa-code';

/** Extra time a challenge record stays readable after expiry, to answer 2fa_expired. */
const RECORD_TTL_MS = TFA_POLICY.challengeLifetimeMs;

/** What a caller is told when the SMS provider refused the first delivery attempt. */
const PROVIDER_REFUSALS = {
  twilio_error:
    'The SMS could not be delivered to this number; check it or use another 2FA method.',
  twilio_rate_limited: 'The SMS provider is busy; wait a moment and retry.',
} satisfies Partial<Record<TfaErrorCode, string>>;

const isProviderRefusalCode = (code: string): code is keyof typeof PROVIDER_REFUSALS =>
  code in PROVIDER_REFUSALS;

/**
 * tfa_secrets and their challenges: issuing (128-bit CSPRNG secrets, stored only as a
 * fingerprint), sending codes through the delivery queue, and comparing codes. The rules
 * (expiry, the send budget, resend and rekey) are domain/challenge.ts's; this is their I/O.
 * Attempts are counted per user and channel by the VerificationFlow, never per challenge.
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
      id: this.random.bytes(16).toString('hex'),
      key: this.keyOf(secret),
      userId,
      purpose,
      channel: extra.channel ?? null,
      destination: extra.destination ?? null,
      methodId: extra.methodId ?? null,
      codeDigest: null,
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
    // A secret handed out before a SECRET_HMAC_KEY rotation is stored under an older key.
    let found: ChallengeLookup = { state: 'unknown' };
    for (const key of this.secrets.fingerprints(SECRET_PURPOSE, secret)) {
      found = await this.store.find(key);
      if (found.state !== 'unknown') break;
    }
    return activeChallenge(found, this.clock.nowMs());
  }

  /**
   * Sends the challenge's code: a resend to the same destination repeats it, a send
   * elsewhere replaces it (domain `repeatsCode`). Updates `challenge` in place. Waits
   * briefly for the first delivery attempt, so an SMS provider's refusal reaches the caller.
   * @throws sms_rate_limited (too many sends on this challenge), no_challenge_found,
   *         twilio_error / twilio_rate_limited (the provider refused the first attempt)
   */
  async sendCode(
    challenge: Challenge,
    channel: SendChannel,
    destination: string,
    methodId: number | null,
  ): Promise<void> {
    if (!hasSendsLeft(challenge))
      throw new TfaError('sms_rate_limited', TFA_ERROR_MESSAGES.tooManySends);
    const sameCode = repeatsCode(challenge, channel, destination);
    const sends = sameCode
      ? await this.store.resendCode(challenge.key)
      : await this.attachFreshCode(challenge, channel, destination, methodId);
    if (sends === null)
      throw new TfaError('no_challenge_found', TFA_ERROR_MESSAGES.challengeNoLongerActive);
    Object.assign(challenge, { channel, destination, sends });
    if (!sameCode) challenge.methodId = methodId;
    if (channel === 'sms' && challenge.purpose === 'verify')
      await this.store.rememberPendingSms(
        challenge.userId,
        challenge.key,
        lifeLeftMs(challenge, this.clock.nowMs()),
      );
    const report = await this.queue.enqueue({ challengeKey: challenge.key, sendNumber: sends });
    // Email failures have no wire code: the caller may resend; support sees the failure.
    if (report.state === 'failed' && channel === 'sms' && isProviderRefusalCode(report.code))
      throw new TfaError(report.code, PROVIDER_REFUSALS[report.code]);
  }

  /**
   * Records `challenge` as the user's latest email challenge of its purpose opened with a
   * Bearer token, and retires the one it replaces at once: only the newest code mailed for
   * a purpose works, and a flood of sends leaves one challenge in Redis, not one per send.
   */
  async supersedeEmailChallenge(challenge: Challenge): Promise<void> {
    const previous = await this.store.replacePendingEmail(
      challenge.userId,
      challenge.purpose,
      challenge.key,
      lifeLeftMs(challenge, this.clock.nowMs()),
    );
    if (previous && previous !== challenge.key)
      await this.store.consume(previous).catch(() => false);
  }

  /**
   * The user's latest SMS verify challenge, for a Bearer caller who lost its secret.
   * @throws no_challenge_found when none is pending
   */
  async pendingSms(userId: number): Promise<Challenge> {
    const key = await this.store.pendingSms(userId);
    const found = key ? await this.store.find(key) : null;
    if (!isPendingSmsOf(found, userId, this.clock.nowMs()))
      throw new TfaError(
        'no_challenge_found',
        'No SMS code is pending for this account; request one with POST /tfa/sms/.',
      );
    return found.challenge;
  }

  /**
   * A fresh secret for a pending challenge (domain `rekeyed`): the old secret stops
   * working. Updates `challenge` in place.
   */
  async reissueSecret(challenge: Challenge): Promise<string> {
    const copy = await this.store.readDeliveryCopy(challenge.key);
    const code = copy && this.secrets.decrypt(copy.codeCiphertext, codeAad(challenge.key));
    if (!copy || !code)
      throw new TfaError('no_challenge_found', TFA_ERROR_MESSAGES.challengeNoLongerActive);
    const secret = this.random.token(TFA_POLICY.secretBits);
    const key = this.keyOf(secret);
    const codeDigest = this.digest(key, code);
    const placed = await this.store.rekey(challenge.key, key, {
      codeDigest,
      codeCiphertext: this.secrets.encrypt(code, codeAad(key)),
    });
    if (!placed)
      throw new TfaError('no_challenge_found', TFA_ERROR_MESSAGES.challengeNoLongerActive);
    Object.assign(challenge, rekeyed(challenge, key, codeDigest));
    await this.store.rememberPendingSms(
      challenge.userId,
      challenge.key,
      lifeLeftMs(challenge, this.clock.nowMs()),
    );
    return secret;
  }

  /** Compares a code with the challenge's, in constant time. Counting is the caller's. */
  codeMatches(challenge: Challenge, code: string): boolean {
    if (!challenge.codeDigest) return false;
    // Under every key version (a code made just before a rotation), all compared.
    let matches = false;
    for (const digest of this.secrets.fingerprints(CODE_PURPOSE, `${challenge.key}:${code}`))
      matches = this.secrets.equal(digest, challenge.codeDigest) || matches;
    return matches;
  }

  /**
   * Retires a challenge that the verification ledger recorded as spent, so its secret
   * reads as used. Best effort: the ledger, not Redis, is what refuses a second use.
   */
  async retire(challenge: Challenge): Promise<void> {
    await this.store.consume(challenge.key).catch(() => false);
  }

  private async attachFreshCode(
    challenge: Challenge,
    channel: SendChannel,
    destination: string,
    methodId: number | null,
  ): Promise<number | null> {
    const code = this.random.digits(TFA_POLICY.codeDigits);
    const codeDigest = this.digest(challenge.key, code);
    const sends = await this.store.attachCode(challenge.key, {
      channel,
      destination,
      methodId,
      codeDigest,
      codeCiphertext: this.secrets.encrypt(code, codeAad(challenge.key)),
    });
    challenge.codeDigest = codeDigest;
    return sends;
  }

  private digest(key: string, code: string): string {
    return this.secrets.fingerprint(CODE_PURPOSE, `${key}:${code}`);
  }
}
