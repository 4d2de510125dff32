import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { RedisConnectionFactory } from '@app/platform';
import { loginThrottleContract } from '../../testing/login-throttle.contract';
import { loginThrottleKey, RedisLoginThrottle } from './redis-login-throttle';

describe('RedisLoginThrottle (real Redis)', () => {
  const factory = new RedisConnectionFactory(process.env.REDIS_URL!);
  const run = randomUUID();
  let redis: Redis;
  let n = 0;

  beforeAll(() => {
    redis = factory.createCommandConnection('login-throttle');
  });
  afterAll(async () => {
    const keys = await redis.keys(loginThrottleKey(`*${run}*`));
    if (keys.length > 0) await redis.del(...keys);
    await factory.closeAll();
  });

  const throttle = (maxFailures: Record<string, number>) =>
    new RedisLoginThrottle(redis, { enabled: true, windowSeconds: 900, maxFailures });

  loginThrottleContract(async () => ({ throttle, unique: () => `${run}-${(n += 1)}` }));

  it("admits at most the user's budget across addresses under parallel attempts, each key counted within its window", async () => {
    const user = `${run}-parallel`;
    const limits = throttle({ user: 10, 'user-addr': 10, addr: 50 });
    const admitted = await Promise.all(
      Array.from({ length: 40 }, (_, i) => {
        const address = `10.0.0.${i % 8}-${run}`;
        return limits.admit({
          keys: [`user:${user}`, `user-addr:${user}:${address}`, `addr:${address}`],
          own: `user-addr:${user}:${address}`,
          within: `user:${user}`,
        });
      }),
    );
    expect(admitted.filter(Boolean)).toHaveLength(10);
    expect(Number(await redis.get(loginThrottleKey(`user:${user}`)))).toBe(10);
    const ttl = await redis.pttl(loginThrottleKey(`user:${user}`));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(900_000);
  });

  it('counts nothing when it is turned off', async () => {
    const off = new RedisLoginThrottle(redis, {
      enabled: false,
      windowSeconds: 900,
      maxFailures: { user: 1 },
    });
    const scope = { keys: [`user:${run}-off`], own: `user:${run}-off` };
    for (let i = 0; i < 3; i += 1) expect(await off.admit(scope)).toBe(true);
    expect(await redis.exists(loginThrottleKey(`user:${run}-off`))).toBe(0);
  });
});
