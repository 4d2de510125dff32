/**
 * The counters one password attempt is counted on (docs/decisions.md "Password login"):
 * each key has its own budget, by its prefix (`user:`, `user-addr:`, `addr:`, `login:`,
 * `device:`).
 */
export interface ThrottleScope {
  /** Every counter the attempt is counted on. */
  keys: string[];
  /**
   * What a right password forgives: this counter is cleared, and what it counted comes off
   * `within`, the counter it is a part of (the failures of one user from one address, within
   * the user's). Every other key only gets this attempt back.
   */
  own: string;
  within?: string;
}

/**
 * Counts password login attempts per user, per (user, address), per client address, per
 * unknown login name, and per trusted device.
 */
export abstract class LoginThrottle {
  /**
   * Counts this attempt against every key of the scope BEFORE the password is checked,
   * atomically per key: false (and nothing counted) when any key has used its budget, so
   * parallel attempts can never get more password checks than the budget.
   */
  abstract admit(scope: ThrottleScope): Promise<boolean>;
  /** The password was right: see ThrottleScope.own. */
  abstract succeeded(scope: ThrottleScope): Promise<void>;
}
