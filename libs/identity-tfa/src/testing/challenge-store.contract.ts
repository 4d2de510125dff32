import { randomUUID } from 'node:crypto';
import { ChallengeStore } from '../application/ports/challenge.store.port';
import { Challenge } from '../domain/challenge';

export interface ChallengeStoreHarness {
  store: ChallengeStore;
  /** Makes the challenge's time run out, as the store's TTL would. */
  expire(key: string): Promise<void>;
}

/**
 * What every ChallengeStore does, run against the in-memory fake (unit) and the Redis
 * adapter (integration), so the fake the use-case tests rely on cannot drift from Redis.
 */
export function challengeStoreContract(name: string, harness: () => ChallengeStoreHarness): void {
  describe(`${name} (ChallengeStore contract)`, () => {
    let store: ChallengeStore;
    let expire: (key: string) => Promise<void>;
    beforeEach(() => {
      ({ store, expire } = harness());
    });

    const challenge = (overrides: Partial<Challenge> = {}): Challenge => ({
      id: randomUUID(),
      key: randomUUID(),
      // Users apart per test: the recent-SMS and pending-SMS markers are per user.
      userId: 100_000 + Math.floor(Math.random() * 1e9),
      purpose: 'verify',
      channel: null,
      destination: null,
      methodId: null,
      codeDigest: null,
      sends: 0,
      createdAtMs: Date.UTC(2026, 0, 1, 12),
      ...overrides,
    });
    const sms = (overrides: Partial<Parameters<ChallengeStore['attachCode']>[1]> = {}) => ({
      channel: 'sms' as const,
      destination: '+14155550123',
      methodId: 3,
      codeDigest: 'd1',
      codeCiphertext: 'c1',
      ...overrides,
    });

    it('finds a created challenge as it was stored; a key never issued is unknown', async () => {
      const created = challenge({ purpose: 'login', methodId: 9 });
      await store.create(created, 600_000);
      expect(await store.find(created.key)).toEqual({ state: 'active', challenge: created });
      expect(await store.find(randomUUID())).toEqual({ state: 'unknown' });
    });

    it('a challenge whose time ran out reads as expired', async () => {
      const created = challenge();
      await store.create(created, 600_000);
      await expire(created.key);
      expect(await store.find(created.key)).toEqual({ state: 'expired' });
    });

    it('consumes once among parallel callers, then reads as cleared and takes no code', async () => {
      const created = challenge();
      await store.create(created, 600_000);
      const results = await Promise.all(
        Array.from({ length: 10 }, () => store.consume(created.key)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await store.find(created.key)).toEqual({ state: 'cleared' });
      expect(await store.attachCode(created.key, sms())).toBeNull();
      expect(await store.consume(randomUUID())).toBe(false);
    });

    it('attaches a code, counts sends, and keeps the code across resends', async () => {
      const created = challenge();
      await store.create(created, 600_000);
      expect(await store.resendCode(created.key)).toBeNull();
      expect(await store.readDeliveryCopy(created.key)).toBeNull();
      expect(await store.attachCode(created.key, sms())).toBe(1);
      expect(await store.resendCode(created.key)).toBe(2);
      expect(await store.readDeliveryCopy(created.key)).toEqual({
        ...created,
        channel: 'sms',
        destination: '+14155550123',
        methodId: 3,
        codeDigest: 'd1',
        sends: 2,
        codeCiphertext: 'c1',
        sendNumber: 2,
      });
      // A code to elsewhere replaces the code and counts as a further send.
      expect(
        await store.attachCode(
          created.key,
          sms({ channel: 'email', destination: 'a@b.test', methodId: null, codeDigest: 'd2' }),
        ),
      ).toBe(3);
      const found = await store.find(created.key);
      expect(found).toEqual({
        state: 'active',
        challenge: {
          ...created,
          channel: 'email',
          destination: 'a@b.test',
          codeDigest: 'd2',
          sends: 3,
        },
      });
    });

    it('a failed delivery of the current send is recorded; of an older send, ignored', async () => {
      const created = challenge();
      await store.create(created, 600_000);
      await store.attachCode(created.key, sms());
      await store.resendCode(created.key);
      await expect(store.markDeliveryFailed(created.key, 1)).resolves.toBeUndefined();
      await expect(store.markDeliveryFailed(created.key, 2)).resolves.toBeUndefined();
      await expect(store.markDeliveryFailed(randomUUID(), 1)).resolves.toBeUndefined();
      expect(await store.readDeliveryCopy(created.key)).toMatchObject({ sendNumber: 2 });
    });

    it('re-keys a challenge with its id, code and sends; the old key reads as cleared', async () => {
      const created = challenge();
      await store.create(created, 600_000);
      await store.attachCode(created.key, sms({ methodId: null }));
      const fresh = randomUUID();
      const code = { codeDigest: 'd2', codeCiphertext: 'c2' };
      expect(await store.rekey(randomUUID(), fresh, code)).toBe(false);
      expect(await store.rekey(created.key, fresh, code)).toBe(true);
      expect(await store.find(created.key)).toEqual({ state: 'cleared' });
      expect(await store.find(fresh)).toEqual({
        state: 'active',
        challenge: {
          ...created,
          key: fresh,
          channel: 'sms',
          destination: '+14155550123',
          codeDigest: 'd2',
          sends: 1,
        },
      });
      expect(await store.readDeliveryCopy(fresh)).toMatchObject({
        codeCiphertext: 'c2',
        sendNumber: 1,
      });
      // Never onto a key that is taken.
      const other = challenge();
      await store.create(other, 600_000);
      expect(await store.rekey(fresh, other.key, code)).toBe(false);
      expect(await store.find(fresh)).toMatchObject({ state: 'active' });
    });

    it("remembers the user's pending SMS challenge", async () => {
      const created = challenge();
      expect(await store.pendingSms(created.userId)).toBeNull();
      await store.rememberPendingSms(created.userId, created.key, 60_000);
      expect(await store.pendingSms(created.userId)).toBe(created.key);
      await store.rememberPendingSms(created.userId, 'newer', 60_000);
      expect(await store.pendingSms(created.userId)).toBe('newer');
    });

    it("replaces the user's pending email challenge of a purpose, answering the one it replaces", async () => {
      const { userId } = challenge();
      expect(await store.replacePendingEmail(userId, 'verify', 'first', 60_000)).toBeNull();
      expect(await store.replacePendingEmail(userId, 'verify', 'second', 60_000)).toBe('first');
      expect(await store.replacePendingEmail(userId, 'authorize', 'other', 60_000)).toBeNull();
      expect(await store.replacePendingEmail(userId, 'verify', 'third', 60_000)).toBe('second');
    });

    it('the recent-SMS marker admits one send until released by its key or its consumption', async () => {
      const created = challenge();
      await store.create(created, 600_000);
      const { userId } = created;
      expect(await store.reserveRecentSms(userId, created.key, 60_000)).toBe(true);
      expect(await store.reserveRecentSms(userId, 'other', 60_000)).toBe(false);
      await store.releaseRecentSms(userId, 'other');
      expect(await store.reserveRecentSms(userId, 'other', 60_000)).toBe(false);
      await store.releaseRecentSms(userId, created.key);
      expect(await store.reserveRecentSms(userId, created.key, 60_000)).toBe(true);
      await store.consume(created.key);
      expect(await store.reserveRecentSms(userId, 'other', 60_000)).toBe(true);
    });
  });
}
