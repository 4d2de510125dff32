/**
 * The per-user lock of account security, for the rest of the current transaction: every
 * change that ends a user's sessions or trusted devices, every trusted-device login and
 * every second-factor verification of that user hold it (identity-tfa's verification ledger
 * takes it through this port), so a device login and a revocation of that user's devices
 * never overlap, and one user's verifications run one after another.
 */
export abstract class UserSecurityLock {
  /** Must run inside a unit of work; released by its commit or rollback. */
  abstract lock(userId: number): Promise<void>;
}
