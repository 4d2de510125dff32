import { randomUUID } from 'node:crypto';
import { RedisConnectionFactory } from '@app/platform';
import { ManualClock, RecordingMetrics } from '@app/platform/testing';
import { FakeTwilio, startFakeTwilio } from '@test/support/fake-twilio';
import { deliveryFailureOf } from '../testing/delivery-failure-of';
import { OutgoingMessage } from '../domain/message';
import { testMessage } from '../testing/test-message';
import { ExactlyOnceDelivery } from './exactly-once-delivery';
import { ProviderSender, SentMessage } from './providers/provider-sender';
import { ProviderSenders } from './providers/provider-senders.factory';
import { TwilioSmsSender } from './providers/twilio-sms.sender';
import { RedisDeliveryLedger } from './redis/redis-delivery-ledger';

class UnusedSender extends ProviderSender {
  readonly name = 'unused';
  send(): Promise<SentMessage> {
    throw new Error('not in this test');
  }
  findSent(): Promise<SentMessage | null> {
    throw new Error('not in this test');
  }
}

describe('ExactlyOnceDelivery (Twilio-compatible server, real Redis)', () => {
  const factory = new RedisConnectionFactory(process.env.REDIS_URL!);
  const LEASE = 15_000;
  let fake: FakeTwilio;
  let ledger: RedisDeliveryLedger;
  let clock: ManualClock;
  let metrics: RecordingMetrics;
  let delivery: ExactlyOnceDelivery;
  let counter = 0;

  const message = () => {
    counter += 1;
    const code = String(200000 + counter * 31);
    const sms = testMessage('sms', {
      code,
      destination: `+1415556${String(counter).padStart(4, '0')}`,
      idempotencyKey: `${randomUUID()}:1`,
    });
    return { ...sms, code };
  };
  const attempt = (sms: OutgoingMessage, n: number, maxAttempts = 5) =>
    delivery.send({ message: sms, attempt: n, maxAttempts });
  beforeAll(async () => {
    fake = await startFakeTwilio();
    ledger = new RedisDeliveryLedger(factory.createCommandConnection('exactly-once'));
  });
  beforeEach(() => {
    fake.reset();
    clock = new ManualClock(Date.now());
    metrics = new RecordingMetrics();
    const sms = new TwilioSmsSender({
      baseUrl: fake.url,
      accountSid: fake.accountSid,
      authToken: fake.authToken,
      from: '+14155550100',
      messagingServiceSid: null,
      timeoutMs: 5_000,
    });
    delivery = new ExactlyOnceDelivery(
      new ProviderSenders({ sms, email: new UnusedSender() }),
      ledger,
      clock,
      metrics,
      LEASE,
    );
  });
  afterAll(async () => {
    await fake.close();
    await factory.closeAll();
  });

  it('sends once; a repeated attempt of the same send sends nothing', async () => {
    const sms = message();
    expect(await attempt(sms, 1)).toMatchObject({ outcome: 'sent', provider: 'twilio' });
    expect(await attempt(sms, 2)).toMatchObject({ outcome: 'already_sent' });
    expect(fake.messages).toHaveLength(1);
    expect(fake.messages[0].body).toContain(sms.code);
  });

  it('500 twice, then accepted: exactly one message, the same code, counted per attempt', async () => {
    const sms = message();
    fake.program({ status: 500 }, { status: 500 });
    expect((await deliveryFailureOf(attempt(sms, 1))).kind).toBe('transient');
    expect((await deliveryFailureOf(attempt(sms, 2))).kind).toBe('transient');
    expect(await attempt(sms, 3)).toMatchObject({ outcome: 'sent' });
    expect(fake.requests).toHaveLength(3);
    expect(fake.requests.every((form) => form.Body.includes(sms.code))).toBe(true);
    expect(fake.messages).toHaveLength(1);
    expect(await ledger.awaitFirstAttempt(sms.idempotencyKey, 0)).toBe('retrying');
    expect(metrics.counts.map((count) => count.labels.outcome)).toEqual([
      'transient',
      'transient',
      'sent',
    ]);
  });

  it('a rejected number is abandoned at once and reported to the waiting request', async () => {
    const sms = message();
    fake.rejectNumber(sms.destination);
    expect(await attempt(sms, 1)).toEqual({
      outcome: 'abandoned',
      provider: 'twilio',
      code: 'twilio_error',
    });
    expect(await ledger.awaitFirstAttempt(sms.idempotencyKey, 0)).toBe('twilio_error');
    expect(await attempt(sms, 2)).toMatchObject({ outcome: 'abandoned' });
    expect(fake.requests).toHaveLength(1);
    expect(metrics.counts).toContainEqual({
      name: 'code_delivery_failures_total',
      labels: { channel: 'sms', provider: 'twilio' },
    });
  });

  it("the provider's 429 on a first attempt someone waits for is answered, not retried", async () => {
    const sms = message();
    fake.program({ status: 429 });
    expect(await attempt(sms, 1)).toMatchObject({
      outcome: 'abandoned',
      code: 'twilio_rate_limited',
    });
    expect(await ledger.awaitFirstAttempt(sms.idempotencyKey, 0)).toBe('twilio_rate_limited');
  });

  it('a 429 nobody waits for any more is retried', async () => {
    const sms = message();
    expect(await ledger.awaitFirstAttempt(sms.idempotencyKey, 0)).toBeNull();
    fake.program({ status: 429 });
    expect((await deliveryFailureOf(attempt(sms, 1))).kind).toBe('rate_limited');
    expect(await attempt(sms, 2)).toMatchObject({ outcome: 'sent' });
    expect(fake.messages).toHaveLength(1);
  });

  it('an answer lost on the way back: the retry finds the accepted message and sends nothing', async () => {
    const sms = message();
    fake.program({ drop: true });
    expect((await deliveryFailureOf(attempt(sms, 1))).maybeSent).toBe(true);
    expect(await attempt(sms, 2)).toMatchObject({
      outcome: 'already_sent',
      providerMessageId: fake.messages[0].sid,
    });
    expect(fake.requests).toHaveLength(1);
    expect(fake.messages).toHaveLength(1);
  });

  it('a worker that died mid-attempt: its lease runs out, the taker-over checks, then sends', async () => {
    const sms = message();
    await ledger.claim(sms.idempotencyKey, clock.nowMs(), LEASE);
    expect((await deliveryFailureOf(attempt(sms, 1))).message).toContain('in flight');
    clock.advance(LEASE);
    expect(await attempt(sms, 2)).toMatchObject({ outcome: 'sent' });
    expect(fake.messages).toHaveLength(1);
  });

  it('transient failures on the last attempt abandon the send', async () => {
    const sms = message();
    fake.program({ status: 503 });
    expect(await attempt(sms, 5, 5)).toMatchObject({
      outcome: 'abandoned',
      code: 'delivery_unavailable',
    });
    expect(await attempt(sms, 6, 5)).toMatchObject({ outcome: 'abandoned' });
    expect(fake.messages).toHaveLength(0);
  });
});
