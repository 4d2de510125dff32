import { LoginThrottle } from '../application/ports/login-throttle.port';

/** Budgets per key as the Redis throttle keeps them (no window: tests run inside one). */
export class InMemoryLoginThrottle extends LoginThrottle {
  readonly attempts = new Map<string, number>();

  constructor(private readonly budget = 10) {
    super();
  }

  async admit(keys: string[]): Promise<boolean> {
    if (keys.some((key) => (this.attempts.get(key) ?? 0) >= this.budget)) return false;
    for (const key of keys) this.attempts.set(key, (this.attempts.get(key) ?? 0) + 1);
    return true;
  }

  async succeeded(keys: string[]): Promise<void> {
    const [first, ...others] = keys;
    this.attempts.delete(first);
    for (const key of others)
      this.attempts.set(key, Math.max(0, (this.attempts.get(key) ?? 0) - 1));
  }
}
