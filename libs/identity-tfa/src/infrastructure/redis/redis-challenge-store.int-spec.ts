import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { RedisConnectionFactory } from '@app/platform';
import { Challenge } from '../../domain/challenge';
import { challengeKey, RedisChallengeStore } from './redis-challenge-store';

describe('RedisChallengeStore (real Redis)', () => {
  const factory = new RedisConnectionFactory(process.env.REDIS_URL!);
  let redis: Redis;
  let store: RedisChallengeStore;

  beforeAll(() => {
    redis = factory.createCommandConnection('tfa-int');
    store = new RedisChallengeStore(redis);
  });
  afterAll(() => factory.closeAll());

  const challenge = (): Challenge => ({
    id: randomUUID(),
    key: randomUUID(),
    userId: 424242,
    purpose: 'verify',
    channel: null,
    destination: null,
    methodId: null,
    codeDigest: null,
    sends: 0,
    createdAtMs: Date.now(),
  });

  it('stores a challenge with its TTL and finds it', async () => {
    const c = challenge();
    await store.create(c, 600_000);
    expect(await store.find(c.key)).toEqual({ state: 'active', challenge: c });
    const ttl = await redis.pttl(challengeKey(c.key));
    expect(ttl).toBeGreaterThan(590_000);
    expect(ttl).toBeLessThanOrEqual(600_000);
  });

  it('consumes exactly once among parallel callers, then reports it cleared', async () => {
    const c = challenge();
    await store.create(c, 600_000);
    const results = await Promise.all(Array.from({ length: 20 }, () => store.consume(c.key)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await store.find(c.key)).toEqual({ state: 'cleared' });
    expect(
      await store.attachCode(c.key, {
        channel: 'sms',
        destination: 'x',
        methodId: null,
        codeDigest: 'd',
        codeCiphertext: 'c',
      }),
    ).toBeNull();
  });

  it('a timed-out challenge is expired; an unknown key is unknown', async () => {
    const c = challenge();
    await store.create(c, 600_000);
    await redis.del(challengeKey(c.key));
    expect(await store.find(c.key)).toEqual({ state: 'expired' });
    expect(await store.find(randomUUID())).toEqual({ state: 'unknown' });
  });

  it('a resend keeps the code under a new send number', async () => {
    const c = challenge();
    await store.create(c, 600_000);
    expect(await store.resendCode(c.key)).toBeNull();
    const code = {
      channel: 'sms' as const,
      destination: '+14155550123',
      methodId: 3,
      codeDigest: 'd1',
      codeCiphertext: 'c1',
    };
    expect(await store.attachCode(c.key, code)).toBe(1);
    expect(await store.resendCode(c.key)).toBe(2);
    expect(await store.readDeliveryCopy(c.key)).toMatchObject({
      codeDigest: 'd1',
      codeCiphertext: 'c1',
      sendNumber: 2,
      methodId: 3,
    });
    await store.markDeliveryFailed(c.key, 1);
    expect(await redis.hget(challengeKey(c.key), 'deliveryFailed')).toBeNull();
    await store.markDeliveryFailed(c.key, 2);
    expect(await redis.hget(challengeKey(c.key), 'deliveryFailed')).toBe('2');
  });

  it('re-keys a challenge with its id and expiry; the old key reads as used', async () => {
    const c = challenge();
    await store.create(c, 600_000);
    await store.attachCode(c.key, {
      channel: 'sms',
      destination: '+14155550123',
      methodId: null,
      codeDigest: 'd1',
      codeCiphertext: 'c1',
    });
    const fresh = randomUUID();
    const code = { codeDigest: 'd2', codeCiphertext: 'c2' };
    expect(await store.rekey(randomUUID(), fresh, code)).toBe(false);
    expect(await store.rekey(c.key, fresh, code)).toBe(true);
    expect(await store.find(c.key)).toEqual({ state: 'cleared' });
    const moved = await store.find(fresh);
    expect(moved).toMatchObject({
      state: 'active',
      challenge: { id: c.id, codeDigest: 'd2', destination: '+14155550123' },
    });
    expect(await redis.pttl(challengeKey(fresh))).toBeGreaterThan(590_000);
    await store.rememberPendingSms(c.userId, fresh, 60_000);
    expect(await store.pendingSms(c.userId)).toBe(fresh);
  });

  it('the recent-SMS marker admits one send and is released when its challenge is consumed', async () => {
    const c = challenge();
    c.userId = Math.floor(Math.random() * 1e9);
    await store.create(c, 600_000);
    expect(await store.reserveRecentSms(c.userId, c.key, 60_000)).toBe(true);
    expect(await store.reserveRecentSms(c.userId, c.key, 60_000)).toBe(false);
    await store.consume(c.key);
    expect(await store.reserveRecentSms(c.userId, 'other', 60_000)).toBe(true);
  });
});
