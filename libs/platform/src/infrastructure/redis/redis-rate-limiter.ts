import Redis from 'ioredis';
import { RateLimiter } from '../../application/ports/rate-limiter.port';

/** A minimum interval between requests: one SET NX PX per request, atomic across processes. */
export class RedisRateLimiter extends RateLimiter {
  constructor(private readonly redis: Redis) {
    super();
  }

  async acquire(bucket: string, identity: string, intervalSeconds: number): Promise<number> {
    const intervalMs = Math.max(1, Math.round(intervalSeconds * 1000));
    const key = `ratelimit:${bucket}:${identity}`;
    const admitted = await this.redis.set(key, '1', 'PX', intervalMs, 'NX');
    if (admitted === 'OK') return 0;
    const remaining = await this.redis.pttl(key);
    return remaining > 0 ? remaining : intervalMs;
  }
}
