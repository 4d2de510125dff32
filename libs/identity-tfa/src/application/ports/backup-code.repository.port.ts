export abstract class BackupCodeRepository {
  /** Soft-deletes the current set and stores the new digests, in the caller's unit of work. */
  abstract replaceSet(userId: number, digests: string[]): Promise<void>;
  abstract countUnused(userId: number): Promise<number>;
  /** Atomic single use: true for exactly one caller per code. */
  abstract consume(userId: number, digest: string, now: Date): Promise<boolean>;
  /** True when this code of the user was accepted once already (a replay, not a guess). */
  abstract wasUsed(userId: number, digest: string): Promise<boolean>;
  abstract softDeleteAll(userId: number, now: Date): Promise<void>;
}
