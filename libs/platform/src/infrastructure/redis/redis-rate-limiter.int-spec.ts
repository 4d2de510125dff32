import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { RedisConnectionFactory } from './redis-connection.factory';
import { RedisRateLimiter } from './redis-rate-limiter';

describe('RedisRateLimiter (real Redis)', () => {
  const factory = new RedisConnectionFactory(process.env.REDIS_URL!);
  let first: Redis;
  let second: Redis;

  beforeAll(() => {
    first = factory.createCommandConnection('test-a');
    second = factory.createCommandConnection('test-b');
  });

  afterAll(() => factory.closeAll());

  it('admits one request per interval across separate connections (processes)', async () => {
    const identity = `user:${randomUUID()}`;
    const a = new RedisRateLimiter(first);
    const b = new RedisRateLimiter(second);
    expect(await a.acquire('charges', identity, 1.0)).toBe(0);
    const wait = await b.acquire('charges', identity, 1.0);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(1000);
  });

  it('admits exactly one of many simultaneous requests', async () => {
    const identity = `user:${randomUUID()}`;
    const limiter = new RedisRateLimiter(first);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => limiter.acquire('volumes_unlist', identity, 5.0)),
    );
    expect(results.filter((wait) => wait === 0)).toHaveLength(1);
  });

  it('keeps buckets and identities apart', async () => {
    const identity = `user:${randomUUID()}`;
    const limiter = new RedisRateLimiter(first);
    expect(await limiter.acquire('charges', identity, 1.0)).toBe(0);
    expect(await limiter.acquire('volumes_unlist', identity, 1.0)).toBe(0);
    expect(await limiter.acquire('charges', `user:${randomUUID()}`, 1.0)).toBe(0);
  });

  it('admits again once the interval has passed (interval expired in Redis)', async () => {
    const identity = `user:${randomUUID()}`;
    const limiter = new RedisRateLimiter(first);
    expect(await limiter.acquire('charges', identity, 1.0)).toBe(0);
    await first.del(`ratelimit:charges:${identity}`);
    expect(await limiter.acquire('charges', identity, 1.0)).toBe(0);
  });
});
