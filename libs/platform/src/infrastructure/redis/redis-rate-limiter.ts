import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import {
  RateLimitDecision,
  RateLimiter,
  RateLimitRule,
} from '../../application/ports/rate-limiter.port';

export const intervalKey = (bucket: string, identity: string) => `ratelimit:${bucket}:${identity}`;
export const windowKey = (bucket: string, identity: string) =>
  `ratelimit-window:${bucket}:${identity}`;

/* The interval's slot is freed only while it still holds this admission's ticket. */
const GIVE_BACK_INTERVAL = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`;

/*
 * A sliding window: one sorted-set member per admitted request, scored by its time (the
 * caller's clock, as the SMS counters use). Answers 0 when admitted, else the milliseconds
 * until the oldest admission leaves the window.
 */
const ADMIT_WITHIN_WINDOW = `
local nowMs = tonumber(ARGV[4])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', nowMs - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.max(1, tonumber(oldest[2]) + window - nowMs)
end
redis.call('ZADD', KEYS[1], nowMs, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return 0`;

const GIVE_BACK_WINDOW = `
redis.call('ZREM', KEYS[1], ARGV[1])
return 1`;

/** Every script with the keys it is called with, for the hash-slot check (redis-scripts.spec). */
export const RATE_LIMITER_SCRIPTS = [
  { name: 'GIVE_BACK_INTERVAL', lua: GIVE_BACK_INTERVAL, keys: [intervalKey('charges', 'user:1')] },
  {
    name: 'ADMIT_WITHIN_WINDOW',
    lua: ADMIT_WITHIN_WINDOW,
    keys: [windowKey('security_writes', 'user:1')],
  },
  {
    name: 'GIVE_BACK_WINDOW',
    lua: GIVE_BACK_WINDOW,
    keys: [windowKey('security_writes', 'user:1')],
  },
];

/**
 * Minimum intervals (one SET NX PX per request) and sliding windows (one script per
 * request), atomic across processes. Each admission holds a random ticket, so giving it
 * back never undoes another request's.
 */
export class RedisRateLimiter extends RateLimiter {
  constructor(private readonly redis: Redis) {
    super();
  }

  async acquire(bucket: string, identity: string, rule: RateLimitRule): Promise<RateLimitDecision> {
    const ticket = randomUUID();
    if ('intervalSeconds' in rule) {
      const intervalMs = Math.max(1, Math.round(rule.intervalSeconds * 1000));
      const key = intervalKey(bucket, identity);
      const admitted = await this.redis.set(key, ticket, 'PX', intervalMs, 'NX');
      if (admitted === 'OK')
        return {
          admitted: true,
          giveBack: async () => {
            await this.redis.eval(GIVE_BACK_INTERVAL, 1, key, ticket);
          },
        };
      const remaining = await this.redis.pttl(key);
      return { admitted: false, waitMs: remaining > 0 ? remaining : intervalMs };
    }
    const key = windowKey(bucket, identity);
    const windowMs = Math.max(1, Math.round(rule.windowSeconds * 1000));
    const waitMs = Number(
      await this.redis.eval(
        ADMIT_WITHIN_WINDOW,
        1,
        key,
        String(rule.limit),
        String(windowMs),
        ticket,
        String(Date.now()),
      ),
    );
    if (waitMs > 0) return { admitted: false, waitMs };
    return {
      admitted: true,
      giveBack: async () => {
        await this.redis.eval(GIVE_BACK_WINDOW, 1, key, ticket);
      },
    };
  }
}
