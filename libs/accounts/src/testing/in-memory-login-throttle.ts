import { LoginThrottle, ThrottleScope } from '../application/ports/login-throttle.port';

/**
 * Budgets per key as the Redis throttle keeps them (no window: tests run inside one): a
 * number is the budget of every key; a record, the budget of each key prefix (`user`,
 * `addr`, ...), keys of other prefixes being unlimited, as RedisLoginThrottle's settings.
 */
export class InMemoryLoginThrottle extends LoginThrottle {
  readonly attempts = new Map<string, number>();

  constructor(private readonly budget: number | Record<string, number> = 10) {
    super();
  }

  async admit(scope: ThrottleScope): Promise<boolean> {
    if (scope.keys.some((key) => (this.attempts.get(key) ?? 0) >= this.budgetOf(key))) return false;
    for (const key of scope.keys) this.attempts.set(key, (this.attempts.get(key) ?? 0) + 1);
    return true;
  }

  async succeeded(scope: ThrottleScope): Promise<void> {
    const forgiven = this.attempts.get(scope.own) ?? 0;
    this.attempts.delete(scope.own);
    if (scope.within) this.takeOff(scope.within, forgiven);
    for (const key of scope.keys)
      if (key !== scope.own && key !== scope.within) this.takeOff(key, 1);
  }

  private budgetOf(key: string): number {
    if (typeof this.budget === 'number') return this.budget;
    return this.budget[key.split(':')[0]] ?? Number.MAX_SAFE_INTEGER;
  }

  private takeOff(key: string, count: number): void {
    const left = Math.max(0, (this.attempts.get(key) ?? 0) - count);
    if (left > 0) this.attempts.set(key, left);
    else this.attempts.delete(key);
  }
}
