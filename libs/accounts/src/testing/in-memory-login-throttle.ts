import { LoginThrottle } from '../application/ports/login-throttle.port';

/**
 * Attempt counters in memory with RedisLoginThrottle's rules: every key is counted before
 * the password is checked, all or none; a success clears the first key's count and gives
 * the others their attempt back. `maxFailures` is per key prefix (`user`, `login`, `addr`).
 */
export class InMemoryLoginThrottle extends LoginThrottle {
  readonly counts = new Map<string, number>();

  constructor(private readonly maxFailures: Record<string, number> = {}) {
    super();
  }

  async admit(keys: string[]): Promise<boolean> {
    const refused = keys.some(
      (key) =>
        (this.counts.get(key) ?? 0) >=
        (this.maxFailures[key.split(':')[0]] ?? Number.MAX_SAFE_INTEGER),
    );
    if (refused) return false;
    for (const key of keys) this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    return true;
  }

  async succeeded(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    this.counts.delete(keys[0]);
    for (const key of keys.slice(1)) {
      this.counts.set(key, Math.max(0, (this.counts.get(key) ?? 0) - 1));
    }
  }
}
