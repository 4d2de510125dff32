import Redis from 'ioredis';
import RedisMock from 'ioredis-mock';

/**
 * Embedded mode's Redis: an in-process implementation of the ioredis client (commands,
 * MULTI and Lua scripts), so the challenge store, rate limiter and throttles run unchanged.
 * State lives in this process only, which is right for a single development instance.
 */
export function createInProcessRedis(): Redis {
  return new RedisMock() as unknown as Redis;
}
