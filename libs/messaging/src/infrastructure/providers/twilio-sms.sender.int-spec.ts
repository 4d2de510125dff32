import { FakeTwilio, smsCode, startFakeTwilio } from '@test/support/fake-twilio';
import { deliveryFailureOf } from '../../testing/delivery-failure-of';
import { testMessage } from '../../testing/test-message';
import { TwilioSettings, TwilioSmsSender } from './twilio-sms.sender';

describe('TwilioSmsSender (against a Twilio-compatible server on loopback)', () => {
  let fake: FakeTwilio;
  let settings: TwilioSettings;
  let counter = 0;

  const message = () => {
    counter += 1;
    const code = String(100000 + counter * 7919).slice(0, 6);
    const sms = testMessage('sms', {
      code,
      destination: `+1415555${String(1000 + counter).padStart(4, '0')}`,
      idempotencyKey: `challenge-${counter}-1`,
    });
    return { ...sms, code };
  };

  beforeAll(async () => {
    fake = await startFakeTwilio();
  });
  beforeEach(() => {
    fake.reset();
    settings = {
      baseUrl: fake.url,
      accountSid: fake.accountSid,
      authToken: fake.authToken,
      from: '+14155550100',
      messagingServiceSid: null,
      timeoutMs: 5_000,
    };
  });
  afterAll(() => fake.close());

  it('posts To, From and the text as its Body, and returns the message sid', async () => {
    const sms = message();
    const sent = await new TwilioSmsSender(settings).send(sms);
    expect(fake.messages).toHaveLength(1);
    const [received] = fake.messages;
    expect(sent.providerMessageId).toBe(received.sid);
    expect(received.sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(received).toMatchObject({ to: sms.destination, from: '+14155550100' });
    expect(smsCode(received)).toBe(sms.code);
    expect(received.body).toBe(sms.content.text);
  });

  it('uses a messaging service instead of a From number when configured', async () => {
    settings = { ...settings, from: null, messagingServiceSid: 'MG0123456789' };
    await new TwilioSmsSender(settings).send(message());
    expect(fake.requests[0]).not.toHaveProperty('From');
    expect(fake.messages[0].messagingServiceSid).toBe('MG0123456789');
  });

  it('a number Twilio rejects (21211) is a permanent twilio_error', async () => {
    const sms = message();
    fake.rejectNumber(sms.destination);
    const failure = await deliveryFailureOf(new TwilioSmsSender(settings).send(sms));
    expect(failure).toMatchObject({ code: 'twilio_error', kind: 'rejected', providerCode: 21211 });
    expect(fake.messages).toHaveLength(0);
  });

  it("Twilio's 429 is twilio_rate_limited", async () => {
    fake.program({ status: 429 });
    const failure = await deliveryFailureOf(new TwilioSmsSender(settings).send(message()));
    expect(failure).toMatchObject({ code: 'twilio_rate_limited', providerCode: 20429 });
  });

  it('a 500 is transient, and the next attempt goes through', async () => {
    fake.program({ status: 500 });
    const sender = new TwilioSmsSender(settings);
    const sms = message();
    expect((await deliveryFailureOf(sender.send(sms))).kind).toBe('transient');
    await sender.send(sms);
    expect(fake.requests).toHaveLength(2);
    expect(fake.messages).toHaveLength(1);
  });

  it('wrong credentials are refused by the server and reported as a permanent failure', async () => {
    settings = { ...settings, authToken: 'not-the-token' };
    const failure = await deliveryFailureOf(new TwilioSmsSender(settings).send(message()));
    expect(failure).toMatchObject({ code: 'twilio_error', providerCode: 20003 });
    expect(fake.requests).toHaveLength(0);
  });

  it('an unreachable endpoint is transient', async () => {
    const closed = await startFakeTwilio();
    await closed.close();
    settings = { ...settings, baseUrl: closed.url };
    const failure = await deliveryFailureOf(new TwilioSmsSender(settings).send(message()));
    expect(failure.kind).toBe('transient');
    expect(failure.maybeSent).toBe(false);
  });

  it('an answer that does not come in time is transient', async () => {
    fake.hold();
    settings = { ...settings, timeoutMs: 200 };
    const failure = await deliveryFailureOf(new TwilioSmsSender(settings).send(message()));
    fake.release();
    expect(failure.kind).toBe('transient');
    expect(failure.message).toContain('timed out');
    expect(failure.maybeSent).toBe(true);
  });

  it('findSent finds a message whose answer was lost, and nothing for an unsent one', async () => {
    const sender = new TwilioSmsSender(settings);
    const lost = message();
    const since = new Date();
    fake.program({ drop: true });
    expect((await deliveryFailureOf(sender.send(lost))).maybeSent).toBe(true);
    expect(fake.messages).toHaveLength(1);
    expect(await sender.findSent(lost, since)).toEqual({ providerMessageId: fake.messages[0].sid });
    expect(await sender.findSent(message(), since)).toBeNull();
  });

  it('findSent ignores older messages to the number that carry the same digits', async () => {
    const sender = new TwilioSmsSender(settings);
    const sms = message();
    await sender.send(sms);
    expect(await sender.findSent(sms, new Date(Date.now() + 10 * 60_000))).toBeNull();
  });
});
