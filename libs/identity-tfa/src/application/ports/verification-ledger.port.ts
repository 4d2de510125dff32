import { FailureLedger } from '../../domain/verification-failures';

/**
 * The durable side of verification (PostgreSQL): failure counts and locks per channel,
 * and the challenges already spent. Every method joins the caller's unit of work.
 */
export abstract class VerificationLedger {
  /**
   * The user's failure ledger, locked for the rest of the current transaction: the
   * verifications of one user run one after another, so a budget is never overrun and
   * a code is never accepted twice, whatever the parallelism.
   */
  abstract lockAndLoad(userId: number): Promise<FailureLedger>;
  /**
   * The same per-user lock, for the rest of the current transaction, without the ledger:
   * account security's UserSecurityLock, which every change that ends a user's sessions or
   * devices, and every trusted-device login, holds too.
   */
  abstract lockUser(userId: number): Promise<void>;
  abstract save(userId: number, ledger: FailureLedger): Promise<void>;
  /** The ledger as it stands, without locking: for displays, never for a decision. */
  abstract load(userId: number): Promise<FailureLedger>;
  /** Records the challenge as spent; false when it already was (single use). */
  abstract markChallengeSpent(challengeId: string, userId: number, now: Date): Promise<boolean>;
  abstract isChallengeSpent(challengeId: string): Promise<boolean>;
}
