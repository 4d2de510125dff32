import Redis from 'ioredis';
import { LoginThrottle } from '../application/ports/login-throttle.port';

export interface LoginThrottleSettings {
  enabled: boolean;
  windowSeconds: number;
  /** Failures allowed per key prefix within the window, e.g. {login: 10, addr: 50}. */
  maxFailures: Record<string, number>;
}

/** Failure counters with a fixed window, shared across api processes. */
export class RedisLoginThrottle extends LoginThrottle {
  constructor(
    private readonly redis: Redis,
    private readonly settings: LoginThrottleSettings,
  ) {
    super();
  }

  async isBlocked(keys: string[]): Promise<boolean> {
    if (!this.settings.enabled) return false;
    const counts = await this.redis.mget(keys.map((key) => this.key(key)));
    return counts.some((count, index) => Number(count ?? 0) >= this.limitFor(keys[index]));
  }

  async recordFailure(keys: string[]): Promise<void> {
    if (!this.settings.enabled) return;
    const pipeline = this.redis.multi();
    for (const key of keys) {
      pipeline.incr(this.key(key));
      pipeline.expire(this.key(key), this.settings.windowSeconds, 'NX');
    }
    await pipeline.exec();
  }

  async reset(keys: string[]): Promise<void> {
    // Only the login name's counter: one success must not clear a whole address's record.
    await this.redis.del(this.key(keys[0]));
  }

  private limitFor(key: string): number {
    return this.settings.maxFailures[key.split(':')[0]] ?? Number.MAX_SAFE_INTEGER;
  }

  private key(key: string): string {
    return `login-failures:${key}`;
  }
}
