/**
 * Counts password login attempts per user (or, for names that match no user, per login
 * name) and per client address.
 */
export abstract class LoginThrottle {
  /**
   * Counts this attempt against every key BEFORE the password is checked, atomically:
   * false (and nothing counted) when any key has used its budget, so parallel attempts can
   * never get more password checks than the budget.
   */
  abstract admit(keys: string[]): Promise<boolean>;
  /** The password was right: the first key's count is cleared, the others get this attempt back. */
  abstract succeeded(keys: string[]): Promise<void>;
}
