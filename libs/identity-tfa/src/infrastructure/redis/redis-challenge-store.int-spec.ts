import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { RedisConnectionFactory } from '@app/platform';
import { Challenge } from '../../domain/challenge';
import { challengeStoreContract } from '../../testing/challenge-store.contract';
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

  challengeStoreContract('RedisChallengeStore', () => ({
    store,
    // The marker of the secret outlives the challenge: what is left when the TTL ran out.
    expire: async (key) => {
      await redis.del(challengeKey(key));
    },
  }));

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

  it('stores a challenge with its TTL; a re-key keeps the time left', async () => {
    const c = challenge();
    await store.create(c, 600_000);
    const ttl = await redis.pttl(challengeKey(c.key));
    expect(ttl).toBeGreaterThan(590_000);
    expect(ttl).toBeLessThanOrEqual(600_000);
    await store.attachCode(c.key, {
      channel: 'sms',
      destination: '+14155550123',
      methodId: null,
      codeDigest: 'd1',
      codeCiphertext: 'c1',
    });
    const fresh = randomUUID();
    expect(await store.rekey(c.key, fresh, { codeDigest: 'd2', codeCiphertext: 'c2' })).toBe(true);
    expect(await redis.pttl(challengeKey(fresh))).toBeGreaterThan(590_000);
  });

  it('records a failed delivery on the challenge only for its current send', async () => {
    const c = challenge();
    await store.create(c, 600_000);
    await store.attachCode(c.key, {
      channel: 'sms',
      destination: '+14155550123',
      methodId: 3,
      codeDigest: 'd1',
      codeCiphertext: 'c1',
    });
    await store.resendCode(c.key);
    await store.markDeliveryFailed(c.key, 1);
    expect(await redis.hget(challengeKey(c.key), 'deliveryFailed')).toBeNull();
    await store.markDeliveryFailed(c.key, 2);
    expect(await redis.hget(challengeKey(c.key), 'deliveryFailed')).toBe('2');
  });
});
