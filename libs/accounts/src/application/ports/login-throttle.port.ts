/** Counts failed password logins per login name and per client address. */
export abstract class LoginThrottle {
  /** True when either key has reached its failure budget. */
  abstract isBlocked(keys: string[]): Promise<boolean>;
  abstract recordFailure(keys: string[]): Promise<void>;
  abstract reset(keys: string[]): Promise<void>;
}
