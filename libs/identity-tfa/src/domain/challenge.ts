import { TFA_POLICY } from './tfa-policy';

/**
 * login: opened by the password login, completes POST /tfa/ only.
 * verify: opened by a Bearer send-code call, usable by any verification of that user.
 * authorize: opened by POST authorize-new-method, completes its PUT only.
 */
export type ChallengePurpose = 'login' | 'verify' | 'authorize';
export type ChallengeChannel = 'sms' | 'email' | 'totp';

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

export function isExpired(challenge: Pick<Challenge, 'createdAtMs'>, nowMs: number): boolean {
  return nowMs >= challenge.createdAtMs + TFA_POLICY.challengeLifetimeMs;
}
