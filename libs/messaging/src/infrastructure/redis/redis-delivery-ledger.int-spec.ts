import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { RedisConnectionFactory } from '@app/platform';
import { RedisDeliveryLedger } from './redis-delivery-ledger';

describe('RedisDeliveryLedger (real Redis)', () => {
  const factory = new RedisConnectionFactory(process.env.REDIS_URL!);
  let workerA: RedisDeliveryLedger;
  let workerB: RedisDeliveryLedger;
  let redis: Redis;
  const LEASE = 15_000;
  const T0 = Date.UTC(2026, 0, 1);
  const send = () => `${randomUUID()}:1`;

  beforeAll(() => {
    redis = factory.createCommandConnection('ledger-a');
    workerA = new RedisDeliveryLedger(redis);
    workerB = new RedisDeliveryLedger(factory.createCommandConnection('ledger-b'));
  });
  afterAll(() => factory.closeAll());

  it('a sent send is never claimed again', async () => {
    const key = send();
    expect(await workerA.claim(key, T0, LEASE)).toEqual({ state: 'claimed' });
    await workerA.recordSent(key, 'SM1');
    expect(await workerB.claim(key, T0 + 1, LEASE)).toEqual({
      state: 'sent',
      providerMessageId: 'SM1',
    });
  });

  it('an abandoned send stays abandoned', async () => {
    const key = send();
    await workerA.claim(key, T0, LEASE);
    await workerA.recordFailed(key, 'twilio_error');
    expect(await workerB.claim(key, T0 + 1, LEASE)).toEqual({
      state: 'failed',
      code: 'twilio_error',
    });
  });

  it('of many simultaneous claims exactly one wins; the others see it in flight', async () => {
    const key = send();
    const claims = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? workerA : workerB).claim(key, T0, LEASE)),
    );
    expect(claims.filter((claim) => claim.state === 'claimed')).toHaveLength(1);
    expect(claims.filter((claim) => claim.state === 'in_flight')).toHaveLength(11);
  });

  it('a lease that ran out (a killed worker) leaves the send uncertain since its start', async () => {
    const key = send();
    await workerA.claim(key, T0, LEASE);
    expect(await workerB.claim(key, T0 + LEASE - 1, LEASE)).toEqual({ state: 'in_flight' });
    expect(await workerB.claim(key, T0 + LEASE, LEASE)).toEqual({
      state: 'uncertain',
      since: new Date(T0),
    });
    // The taker-over holds a fresh lease.
    expect(await workerA.claim(key, T0 + LEASE + 1, LEASE)).toEqual({ state: 'in_flight' });
  });

  it('an attempt that may have been accepted makes the next one check first, even after a clean failure', async () => {
    const key = send();
    await workerA.claim(key, T0, LEASE);
    await workerA.markUncertain(key);
    expect(await workerB.claim(key, T0 + 1_000, LEASE)).toEqual({
      state: 'uncertain',
      since: new Date(T0),
    });
    await workerB.release(key);
    expect(await workerA.claim(key, T0 + 3_000, LEASE)).toEqual({
      state: 'uncertain',
      since: new Date(T0),
    });
  });

  it('an attempt that certainly sent nothing lets the next attempt send', async () => {
    const key = send();
    await workerA.claim(key, T0, LEASE);
    await workerA.release(key);
    expect(await workerB.claim(key, T0 + 1_000, LEASE)).toEqual({ state: 'claimed' });
  });

  it('the requester hears the first attempt when it reports in time', async () => {
    const key = send();
    expect(await workerA.reportFirstAttempt(key, 'twilio_error')).toBe(true);
    expect(await workerB.awaitFirstAttempt(key, 0)).toBe('twilio_error');
  });

  it('the requester waits until the report arrives', async () => {
    const key = send();
    const waiting = workerB.awaitFirstAttempt(key, 20_000);
    await workerA.reportFirstAttempt(key, 'sent');
    expect(await waiting).toBe('sent');
  });

  it('once the requester stopped waiting a late report is known to be unheard', async () => {
    const key = send();
    expect(await workerB.awaitFirstAttempt(key, 0)).toBeNull();
    expect(await workerA.reportFirstAttempt(key, 'twilio_rate_limited')).toBe(false);
    expect(await redis.hget(`tfa:delivery:${key}`, 'first')).toBe('unheard');
  });

  it('a requester that does not wait at all says so up front: no report is heard', async () => {
    const key = send();
    await workerB.markUnheard(key);
    expect(await workerA.reportFirstAttempt(key, 'twilio_rate_limited')).toBe(false);
    const reported = send();
    await workerA.reportFirstAttempt(reported, 'sent');
    await workerB.markUnheard(reported);
    expect(await redis.hget(`tfa:delivery:${reported}`, 'first')).toBe('sent');
  });

  it('keeps its bookkeeping for a bounded time', async () => {
    const key = send();
    await workerA.claim(key, T0, LEASE);
    const ttl = await redis.pttl(`tfa:delivery:${key}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(24 * 3600 * 1000);
  });
});
