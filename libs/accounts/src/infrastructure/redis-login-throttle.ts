import Redis from 'ioredis';
import { LoginThrottle } from '../application/ports/login-throttle.port';

export interface LoginThrottleSettings {
  enabled: boolean;
  windowSeconds: number;
  /** Attempts allowed per key prefix within the window, e.g. {user: 10, addr: 50}. */
  maxFailures: Record<string, number>;
}

// Checks every key, then counts the attempt in all of them: one step, so a burst of
// parallel attempts is admitted exactly up to the budget.
const ADMIT = `
for i, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') >= tonumber(ARGV[i]) then return 0 end
end
for _, key in ipairs(KEYS) do
  redis.call('INCR', key)
  redis.call('EXPIRE', key, ARGV[#ARGV], 'NX')
end
return 1`;

const SUCCEEDED = `
redis.call('DEL', KEYS[1])
for i = 2, #KEYS do
  if tonumber(redis.call('GET', KEYS[i]) or '0') > 0 then redis.call('DECR', KEYS[i]) end
end
return 1`;

/** Attempt counters with a fixed window, shared across api processes. */
export class RedisLoginThrottle extends LoginThrottle {
  constructor(
    private readonly redis: Redis,
    private readonly settings: LoginThrottleSettings,
  ) {
    super();
  }

  async admit(keys: string[]): Promise<boolean> {
    if (!this.settings.enabled) return true;
    const limits = keys.map((key) => String(this.limitFor(key)));
    const admitted = await this.redis.eval(
      ADMIT,
      keys.length,
      ...keys.map((key) => this.key(key)),
      ...limits,
      String(this.settings.windowSeconds),
    );
    return admitted === 1;
  }

  async succeeded(keys: string[]): Promise<void> {
    if (!this.settings.enabled) return;
    // One success must not clear a whole address's record: only its own attempt goes.
    await this.redis.eval(SUCCEEDED, keys.length, ...keys.map((key) => this.key(key)));
  }

  private limitFor(key: string): number {
    return this.settings.maxFailures[key.split(':')[0]] ?? Number.MAX_SAFE_INTEGER;
  }

  private key(key: string): string {
    return `login-failures:${key}`;
  }
}
