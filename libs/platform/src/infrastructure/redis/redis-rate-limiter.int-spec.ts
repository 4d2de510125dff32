import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { RedisConnectionFactory } from './redis-connection.factory';
import { RedisRateLimiter } from './redis-rate-limiter';

const ONE_SECOND = { intervalSeconds: 1.0 };
const ADMITTED = { admitted: true };

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
    expect(await a.acquire('charges', identity, ONE_SECOND)).toMatchObject({ admitted: true });
    const refused = await b.acquire('charges', identity, ONE_SECOND);
    expect(refused.admitted).toBe(false);
    const wait = refused.admitted ? 0 : refused.waitMs;
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(1000);
  });

  it('admits exactly one of many simultaneous requests', async () => {
    const identity = `user:${randomUUID()}`;
    const limiter = new RedisRateLimiter(first);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        limiter.acquire('volumes_unlist', identity, { intervalSeconds: 5.0 }),
      ),
    );
    expect(results.filter((result) => result.admitted)).toHaveLength(1);
  });

  it('keeps buckets and identities apart', async () => {
    const identity = `user:${randomUUID()}`;
    const limiter = new RedisRateLimiter(first);
    expect(await limiter.acquire('charges', identity, ONE_SECOND)).toMatchObject(ADMITTED);
    expect(await limiter.acquire('volumes_unlist', identity, ONE_SECOND)).toMatchObject(ADMITTED);
    expect(await limiter.acquire('charges', `user:${randomUUID()}`, ONE_SECOND)).toMatchObject(
      ADMITTED,
    );
  });

  it('admits again once the interval has passed (interval expired in Redis)', async () => {
    const identity = `user:${randomUUID()}`;
    const limiter = new RedisRateLimiter(first);
    expect(await limiter.acquire('charges', identity, ONE_SECOND)).toMatchObject(ADMITTED);
    await first.del(`ratelimit:charges:${identity}`);
    expect(await limiter.acquire('charges', identity, ONE_SECOND)).toMatchObject(ADMITTED);
  });

  it('gives an admission back, and only its own', async () => {
    const identity = `user:${randomUUID()}`;
    const limiter = new RedisRateLimiter(first);
    const taken = await limiter.acquire('charges_export', identity, { intervalSeconds: 10 });
    if (!taken.admitted) throw new Error('not admitted');
    await taken.giveBack();
    const again = await limiter.acquire('charges_export', identity, { intervalSeconds: 10 });
    expect(again).toMatchObject(ADMITTED);
    // The first admission's give-back, repeated, does not undo the second one.
    await taken.giveBack();
    expect(
      await limiter.acquire('charges_export', identity, { intervalSeconds: 10 }),
    ).toMatchObject({ admitted: false });
  });

  it('admits at most `limit` per sliding window, and says when the oldest leaves it', async () => {
    const identity = `user:${randomUUID()}`;
    const limiter = new RedisRateLimiter(first);
    const rule = { limit: 3, windowSeconds: 60 };
    const results = await Promise.all(
      Array.from({ length: 10 }, () => limiter.acquire('security_writes', identity, rule)),
    );
    const admitted = results.filter((result) => result.admitted);
    expect(admitted).toHaveLength(3);
    for (const result of results)
      if (!result.admitted) {
        expect(result.waitMs).toBeGreaterThan(55_000);
        expect(result.waitMs).toBeLessThanOrEqual(60_000);
      }
    // A request given back frees its place at once.
    if (admitted[0].admitted) await admitted[0].giveBack();
    expect(await limiter.acquire('security_writes', identity, rule)).toMatchObject(ADMITTED);
    expect(await limiter.acquire('security_writes', identity, rule)).toMatchObject({
      admitted: false,
    });
    expect(await limiter.acquire('security_writes', `user:${randomUUID()}`, rule)).toMatchObject(
      ADMITTED,
    );
  });
});
