import { createTestUser, startApi, TestApi, TestUser } from '@test/support/api';
import { forgetRecentSend, twilioEnv } from '@test/support/delivery';
import { FakeTwilio, startFakeTwilio } from '@test/support/fake-twilio';
import { OwnRedis } from '@test/support/own-redis';
import { forgetRecentSms, sql, testPhone } from '@test/support/tfa';
import { resendSms, sendSms } from '@test/support/tfa-requests';

/** SMS anti-fraud limits over HTTP: each limit is hit, before anything reaches the provider. */
describe('SMS anti-fraud limits', () => {
  let api: TestApi;
  let fake: FakeTwilio;
  let redis: OwnRedis;

  beforeAll(async () => {
    // A Redis of its own: on the shared one this api's worker (sending through the fake
    // Twilio) would take other test files' delivery jobs off the common queue.
    [fake, redis] = await Promise.all([startFakeTwilio(), OwnRedis.start()]);
    api = await startApi({
      ...twilioEnv(fake),
      REDIS_URL: redis.url,
      SMS_BLOCKED_PREFIXES: '+88299',
      SMS_BLOCKED_COUNTRIES: 'SO',
    });
  });
  afterAll(async () => {
    await api.close();
    await Promise.all([fake.close(), redis.stop()]);
  });

  const smsTo = (user: TestUser, phone: string) => sendSms(api, user.auth, { phone_number: phone });

  /** A fresh Bearer send for the same user: lifts the 2FA context's own per-user spacing. */
  async function sendAgain(user: TestUser, phone: string) {
    await forgetRecentSms(api, user.id);
    await forgetRecentSend(api, phone);
    return smsTo(user, phone);
  }

  const sentTo = (phone: string) => fake.requests.filter((form) => form.To === phone).length;

  it('5 SMS per user in 10 minutes: the 6th is 429 sms_rate_limited and is not sent', async () => {
    const user = await createTestUser(api);
    for (let i = 0; i < 5; i += 1)
      await sendAgain(user, testPhone()).then((r) => expect(r.status).toBe(200));
    const sixth = testPhone();
    const refused = await sendAgain(user, sixth);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, error: 'sms_rate_limited' });
    expect(sentTo(sixth)).toBe(0);
  });

  it('5 SMS per number in 10 minutes, whichever accounts ask', async () => {
    const phone = testPhone();
    const [first, second] = [await createTestUser(api), await createTestUser(api)];
    for (let i = 0; i < 5; i += 1)
      expect((await sendAgain(i < 3 ? first : second, phone)).status).toBe(200);
    const refused = await sendAgain(second, phone);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('sms_rate_limited');
  });

  it('a new SMS to a number that got one less than 60 s ago is tfa_challenge_exists; resend still works', async () => {
    const phone = testPhone();
    const first = await createTestUser(api);
    const second = await createTestUser(api);
    const sent = await smsTo(first, phone);
    expect(sent.status).toBe(200);
    const refused = await smsTo(second, phone);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('tfa_challenge_exists');
    const resent = await resendSms(api, first.auth, { secret: sent.body.secret });
    expect(resent.status).toBe(200);
    await forgetRecentSend(api, phone);
    expect((await smsTo(second, phone)).status).toBe(200);
  });

  it('one number for more than 3 accounts in 24 hours is 429 preauth_phone_cap', async () => {
    const phone = testPhone();
    for (let i = 0; i < 3; i += 1)
      expect((await sendAgain(await createTestUser(api), phone)).status).toBe(200);
    const fourth = await sendAgain(await createTestUser(api), phone);
    expect(fourth.status).toBe(429);
    expect(fourth.body).toMatchObject({ success: false, error: 'preauth_phone_cap' });
  });

  it('blocked prefixes and regions are 400 sms_blocked_number before any send', async () => {
    const user = await createTestUser(api);
    const before = fake.requests.length;
    const prefix = await smsTo(user, '+882991234567');
    expect(prefix.status).toBe(400);
    expect(prefix.body.error).toBe('sms_blocked_number');
    const region = await smsTo(user, '+252612345678');
    expect(region.status).toBe(400);
    expect(region.body.error).toBe('sms_blocked_number');
    expect(fake.requests.length).toBe(before);
  });

  it('an account flagged for SMS fraud is 403 sms_fraud_detected, also on resend', async () => {
    const user = await createTestUser(api);
    const phone = testPhone();
    const sent = await smsTo(user, phone);
    expect(sent.status).toBe(200);
    await sql(api, `UPDATE users SET sms_fraud_flagged_at = now() WHERE id = $1`, [user.id]);
    const resend = await resendSms(api, user.auth, { secret: sent.body.secret });
    expect(resend.status).toBe(403);
    expect(resend.body.error).toBe('sms_fraud_detected');
  });

  it('a number no numbering plan allows is 400 bad_request before any send', async () => {
    const user = await createTestUser(api);
    const before = fake.requests.length;
    for (const number of ['+999123456789', '+1415555019']) {
      const refused = await smsTo(user, number);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('bad_request');
      expect(refused.body.msg).toContain('phone_number');
    }
    expect(fake.requests.length).toBe(before);
  });
});
