import { Challenge } from '../../domain/challenge';

export type ChallengeLookup =
  | { state: 'active'; challenge: Challenge }
  /** Issued once, then consumed or discarded after too many wrong codes. */
  | { state: 'cleared' }
  /** Issued once and timed out. */
  | { state: 'expired' }
  /** Never issued (or forgotten long ago). */
  | { state: 'unknown' };

export interface DeliveryCopy {
  /** Ciphertext of the code, readable only by the delivery processor. */
  codeCiphertext: string;
  sendNumber: number;
}

/** Pending challenges (Redis, 10-minute TTL). Keys are fingerprints of the tfa_secret. */
export abstract class ChallengeStore {
  abstract create(challenge: Challenge, ttlMs: number): Promise<void>;
  abstract find(key: string): Promise<ChallengeLookup>;
  /** A new code for the challenge (first send on a login challenge, or a resend). */
  abstract attachCode(
    key: string,
    code: {
      channel: Challenge['channel'];
      destination: string | null;
      methodId: number | null;
      codeDigest: string | null;
      codeCiphertext: string | null;
    },
  ): Promise<number | null>;
  /** Counts one verification attempt atomically; null when the challenge is gone. */
  abstract recordAttempt(key: string): Promise<number | null>;
  /** Removes the challenge; true for exactly one caller (single use). */
  abstract consume(key: string): Promise<boolean>;
  abstract readDeliveryCopy(key: string): Promise<(DeliveryCopy & Challenge) | null>;
  abstract clearDeliveryCopy(key: string, sendNumber: number): Promise<void>;
  /** Marks that an SMS was just sent to the user; false when one already was (recent). */
  abstract reserveRecentSms(userId: number, key: string, windowMs: number): Promise<boolean>;
}
