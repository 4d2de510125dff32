import { TFA_ERROR_MESSAGES } from './error-messages';
import { TfaError } from './errors';
import { TFA_POLICY } from './tfa-policy';

/**
 * login: opened by the password login, completes POST /tfa/ only.
 * verify: opened by a Bearer send-code call, usable by any verification of that user.
 * authorize: opened by POST authorize-new-method, completes its PUT only.
 */
export type ChallengePurpose = 'login' | 'verify' | 'authorize';
export type ChallengeChannel = 'sms' | 'email' | 'totp';
/** The channels a code is sent on (a TOTP challenge sends nothing). */
export type SendChannel = Extract<ChallengeChannel, 'sms' | 'email'>;

/** A pending code verification, identified by the fingerprint of its tfa_secret. */
export interface Challenge {
  /**
   * Stable identity, kept when the challenge moves to a new secret: a spent challenge is
   * recorded under it, so no secret of it can be used again.
   */
  id: string;
  key: string;
  userId: number;
  purpose: ChallengePurpose;
  /** null until a code is sent (a login challenge starts without one). */
  channel: ChallengeChannel | null;
  /** Phone (E.164) or email address the code went to. */
  destination: string | null;
  /** The configured method behind the challenge, when there is one (lockout accounting). */
  methodId: number | null;
  /** HMAC(server key, challenge key + code); the code itself is never stored. */
  codeDigest: string | null;
  sends: number;
  createdAtMs: number;
}

/** What the challenge store knows of a key. */
export type ChallengeLookup =
  | { state: 'active'; challenge: Challenge }
  /** Issued once, then consumed, or moved to another secret. */
  | { state: 'cleared' }
  /** Issued once and timed out. */
  | { state: 'expired' }
  /** Never issued (or forgotten long ago). */
  | { state: 'unknown' };

export function isExpired(challenge: Pick<Challenge, 'createdAtMs'>, nowMs: number): boolean {
  return nowMs >= challenge.createdAtMs + TFA_POLICY.challengeLifetimeMs;
}

/** How long the challenge stays valid from `nowMs` (negative once it has expired). */
export function lifeLeftMs(challenge: Pick<Challenge, 'createdAtMs'>, nowMs: number): number {
  return challenge.createdAtMs + TFA_POLICY.challengeLifetimeMs - nowMs;
}

/**
 * The active challenge a secret names, or the refusal that tells why there is none:
 * challenge_not_found (never issued), no_challenge_found (used or replaced), 2fa_expired
 * (timed out, by the store's TTL or by the clock, whichever comes first).
 */
export function activeChallenge(lookup: ChallengeLookup, nowMs: number): Challenge {
  if (lookup.state === 'unknown')
    throw new TfaError('challenge_not_found', TFA_ERROR_MESSAGES.challengeNotFound);
  if (lookup.state === 'cleared')
    throw new TfaError('no_challenge_found', TFA_ERROR_MESSAGES.challengeNoLongerActive);
  if (lookup.state === 'expired' || isExpired(lookup.challenge, nowMs))
    throw new TfaError('2fa_expired', TFA_ERROR_MESSAGES.challengeExpired);
  return lookup.challenge;
}

/**
 * The attempt budget: a challenge allows `maxSendsPerChallenge` sends in all (the first
 * send and every resend), so one secret cannot be used to send codes without end.
 */
export function hasSendsLeft(challenge: Pick<Challenge, 'sends'>): boolean {
  return challenge.sends < TFA_POLICY.maxSendsPerChallenge;
}

/**
 * The resend rule: a challenge carries one code. A send to where its code already went
 * repeats that code (a message that arrives late still works); a send to another channel
 * or destination replaces it with a new one.
 */
export function repeatsCode(
  challenge: Pick<Challenge, 'codeDigest' | 'channel' | 'destination'>,
  channel: SendChannel,
  destination: string,
): boolean {
  return (
    challenge.codeDigest !== null &&
    challenge.channel === channel &&
    challenge.destination === destination
  );
}

/**
 * The rekey rule: a pending challenge moves to a new secret with its id, sends and expiry;
 * only the key and the code's binding to it change, so the old secret stops working and
 * nothing else about the challenge does.
 */
export function rekeyed(challenge: Challenge, key: string, codeDigest: string): Challenge {
  return { ...challenge, key, codeDigest };
}

/**
 * Whether a remembered pending SMS challenge can be recovered by `userId` now: still
 * active, the user's own, an SMS one, and not expired.
 */
export function isPendingSmsOf(
  lookup: ChallengeLookup | null,
  userId: number,
  nowMs: number,
): lookup is { state: 'active'; challenge: Challenge } {
  return (
    lookup?.state === 'active' &&
    lookup.challenge.userId === userId &&
    lookup.challenge.channel === 'sms' &&
    !isExpired(lookup.challenge, nowMs)
  );
}

/** Binds the encrypted delivery copy of a code to its challenge. */
export function codeAad(key: string): string {
  return `tfa-challenge:${key}`;
}
