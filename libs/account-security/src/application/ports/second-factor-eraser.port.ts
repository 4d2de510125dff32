/** What erasing a user's second factor took away. */
export interface ErasedSecondFactor {
  methodsRemoved: number;
  backupCodesRevoked: number;
}

/**
 * The operator's reset reaches the user's second factor through this port, which the
 * two-factor context implements (account security never imports it): every method removed
 * and every unused backup code revoked, in the caller's unit of work, under the user's lock
 * the caller already holds.
 */
export abstract class SecondFactorEraser {
  abstract eraseAll(userId: number, now: Date): Promise<ErasedSecondFactor>;
}
