import { Challenge, ChallengeLookup, ChallengePurpose } from '../../domain/challenge';

export interface DeliveryCopy {
  /** Ciphertext of the code, readable only by the delivery processor. */
  codeCiphertext: string;
  sendNumber: number;
}

/** A code put on a challenge: where it goes, its digest, and its copy for the delivery job. */
export type AttachedCode = Pick<
  Challenge,
  'channel' | 'destination' | 'methodId' | 'codeDigest'
> & {
  codeCiphertext: string | null;
};

/** Pending challenges (Redis, 10-minute TTL). Keys are fingerprints of the tfa_secret. */
export abstract class ChallengeStore {
  abstract create(challenge: Challenge, ttlMs: number): Promise<void>;
  abstract find(key: string): Promise<ChallengeLookup>;
  /** A new code for the challenge (first send on a login challenge, or a resend). */
  abstract attachCode(key: string, code: AttachedCode): Promise<number | null>;
  /**
   * Retires a spent challenge: its secret reads as used from then on. Single use itself
   * is decided by the verification ledger, in the transaction of the action.
   */
  abstract consume(key: string): Promise<boolean>;
  /**
   * A further send of the code already on the challenge (a resend): the same code, a new
   * send number. Null when the challenge is gone or carries no code.
   */
  abstract resendCode(key: string): Promise<number | null>;
  /**
   * The encrypted code and the current send. Kept for the challenge's lifetime, so every
   * retry and every resend carries the same code.
   */
  abstract readDeliveryCopy(key: string): Promise<(DeliveryCopy & Challenge) | null>;
  /** Every attempt of that send failed: recorded on the challenge for support. */
  abstract markDeliveryFailed(key: string, sendNumber: number): Promise<void>;
  /** Remembers the user's latest SMS verify challenge, so a lost secret can be recovered. */
  abstract rememberPendingSms(userId: number, key: string, ttlMs: number): Promise<void>;
  abstract pendingSms(userId: number): Promise<string | null>;
  /**
   * Makes `key` the user's latest email challenge of `purpose` opened with a Bearer token;
   * answers the one it replaces (which the caller retires), if any.
   */
  abstract replacePendingEmail(
    userId: number,
    purpose: ChallengePurpose,
    key: string,
    ttlMs: number,
  ): Promise<string | null>;
  /**
   * Moves a challenge to a new key (a fresh secret) with its code re-bound to that key,
   * keeping its id, sends and expiry; the old secret reads as used. False when the
   * challenge is gone.
   */
  abstract rekey(
    oldKey: string,
    newKey: string,
    code: { codeDigest: string; codeCiphertext: string },
  ): Promise<boolean>;
  /** Marks that an SMS was just sent to the user; false when one already was (recent). */
  abstract reserveRecentSms(userId: number, key: string, windowMs: number): Promise<boolean>;
  /** Undoes `reserveRecentSms` when the SMS was refused after all (only if still `key`'s). */
  abstract releaseRecentSms(userId: number, key: string): Promise<void>;
}
