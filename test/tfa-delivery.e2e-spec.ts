import { ErrorCatalog, QueueRegistry } from '@app/platform';
import { createTestUser, runManage, startApi, TestApi } from '@test/support/api';
import {
  addSms,
  enableTotp,
  failureState,
  outboxCount,
  readCode,
  redis,
  sql,
  testPhone,
} from '@test/support/tfa';
import { waitFor } from '@test/support/wait';
import {
  resendSms,
  sendEmail,
  passwordLogin,
  sendSms,
  startAuthorization,
  tfaLogin,
} from '@test/support/tfa-requests';
import { OutboxReader } from '@app/messaging';

/** Send-code routes: SMS, resend, email, the BullMQ queue, the outbox provider and its command. */
describe('2FA code delivery', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  describe('POST /tfa/sms/', () => {
    it('queues a job that carries no code, delivers to the outbox and removes the job; the code stays only encrypted, until the challenge is used', async () => {
      const user = await createTestUser(api);
      const phone = testPhone();
      await addSms(api, user, phone);
      const response = await sendSms(api, user.auth, { phone_number: phone });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, msg: '2FA Sent', secret: expect.any(String) });
      expect(response.body.secret.length).toBeGreaterThanOrEqual(22);
      const code = await readCode(api, phone);
      expect(code).toMatch(/^\d{6}$/);
      const store = redis(api);
      const challengeKeys: string[] = [];
      for (const key of await store.keys('tfa:challenge:*'))
        if (Number(await store.hget(key, 'userId')) === user.id) challengeKeys.push(key);
      expect(challengeKeys).toHaveLength(1);
      const fields = await store.hgetall(challengeKeys[0]);
      expect(JSON.stringify(fields)).not.toContain(code);
      expect(Number(await store.pttl(challengeKeys[0]))).toBeLessThanOrEqual(10 * 60 * 1000);
      const challengeId = challengeKeys[0].slice('tfa:challenge:{'.length, -1);
      const queue = api.app.get(QueueRegistry).get('code-delivery');
      const job = await waitFor(
        () => queue.getJob(`${challengeId}-1`),
        (current) => current === undefined,
        { what: 'the delivery job to complete' },
      );
      expect(job).toBeUndefined();
      // Kept encrypted for resends (which repeat the same code) until the challenge is used.
      const copy = await store.hget(challengeKeys[0], 'codeCiphertext');
      expect(copy).toEqual(expect.any(String));
      expect(copy).not.toContain(code);
      await tfaLogin(api, user.auth, {
        tfa_method: 'sms',
        code,
        secret: response.body.secret,
      }).expect(200);
      expect(await store.exists(challengeKeys[0])).toBe(0);
    });

    it('a second send moments later is tfa_challenge_exists (use resend)', async () => {
      const user = await createTestUser(api);
      const phone = testPhone();
      await sendSms(api, user.auth, { phone_number: phone }).expect(200);
      const again = await sendSms(api, user.auth, { phone_number: phone });
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ success: false, error: 'tfa_challenge_exists' });
    });

    it('needs a verified email, except for admins', async () => {
      const user = await createTestUser(api, { verified: false });
      const refused = await sendSms(api, user.auth, { phone_number: testPhone() });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('email_not_verified');
      const admin = await createTestUser(api, { verified: false, admin: true });
      const phone = testPhone();
      const sent = await sendSms(api, admin.auth, { phone_number: phone });
      expect(sent.status).toBe(200);
      const resent = await resendSms(api, admin.auth, { secret: sent.body.secret });
      expect(resent.status).toBe(200);
      const email = await sendEmail(api, admin.auth, {});
      expect(email.status).toBe(400);
      expect(email.body.error).toBe('email_not_verified');
      // Not exempt on authorize-new-method either, even when it would send an SMS.
      await sql(
        api,
        `INSERT INTO tfa_methods (user_id, method, label, phone_number) VALUES ($1, 'sms', 's', $2)`,
        [admin.id, phone],
      );
      const authorize = await startAuthorization(api, admin.auth, { tfa_method: 'sms' });
      expect(authorize.status).toBe(400);
      expect(authorize.body.error).toBe('email_not_verified');
    });

    it('without a number anywhere: missing_phone_number; a foreign method id: not_found; a TOTP id: invalid_tfa_method', async () => {
      const user = await createTestUser(api);
      const totp = await enableTotp(api, user);
      const missing = await sendSms(api, user.auth, {});
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe('missing_phone_number');
      const totpId = await sendSms(api, user.auth, { tfa_method_id: totp.methodId });
      expect(totpId.body.error).toBe('invalid_tfa_method');
      const other = await createTestUser(api);
      const otherSms = await addSms(api, other, testPhone());
      const foreign = await sendSms(api, user.auth, { tfa_method_id: String(otherSms.methodId) });
      expect(foreign.status).toBe(404);
      expect(foreign.body.error).toBe('not_found');
    });

    it('an account flagged for SMS pumping gets sms_fraud_detected (403)', async () => {
      const user = await createTestUser(api);
      await sql(api, `UPDATE users SET sms_fraud_flagged_at = now() WHERE id = $1`, [user.id]);
      const response = await sendSms(api, user.auth, { phone_number: testPhone() });
      expect(response.status).toBe(403);
      expect(response.body.error).toBe('sms_fraud_detected');
    });

    it('a phone number that is not E.164 is bad_request', async () => {
      const user = await createTestUser(api);
      const response = await sendSms(api, user.auth, { phone_number: '5551234' });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('bad_request');
      expect(response.body.msg).toContain('phone_number');
    });
  });

  describe('POST /tfa/sms/resend/', () => {
    it('repeats the same code on the same secret, and that code logs in', async () => {
      const user = await createTestUser(api);
      const phone = testPhone();
      await addSms(api, user, phone);
      const sent = await sendSms(api, user.auth, {}).expect(200);
      const firstCode = await readCode(api, phone);
      const resent = await resendSms(api, user.auth, { secret: sent.body.secret });
      expect(resent.status).toBe(200);
      expect(resent.body).toEqual({
        success: true,
        msg: 'A 6-digit code has been sent to your phone',
        secret: sent.body.secret,
      });
      expect(await readCode(api, phone)).toBe(firstCode);
      await tfaLogin(api, user.auth, {
        tfa_method: 'sms',
        code: firstCode,
        secret: sent.body.secret,
      }).expect(200);
    });

    it('with a Bearer token and no secret, the pending SMS challenge comes back under a fresh secret', async () => {
      const user = await createTestUser(api);
      const phone = testPhone();
      await addSms(api, user, phone);
      const sent = await sendSms(api, user.auth, {}).expect(200);
      const code = await readCode(api, phone);
      const wrong = code === '000000' ? '111111' : '000000';
      await tfaLogin(api, user.auth, {
        tfa_method: 'sms',
        code: wrong,
        secret: sent.body.secret,
      }).expect(400);
      const response = await resendSms(api, user.auth, {});
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        msg: 'A 6-digit code has been sent to your phone',
        secret: expect.any(String),
      });
      expect(response.body.secret).not.toBe(sent.body.secret);
      expect(await readCode(api, phone)).toBe(code);
      const old = await tfaLogin(api, user.auth, {
        tfa_method: 'sms',
        code,
        secret: sent.body.secret,
      });
      expect(old.status).toBe(400);
      expect(old.body.error).toBe('no_challenge_found');
      // The wrong code made before the recovery still counts against the user's SMS channel.
      expect((await failureState(api, user.id, 'sms')).failCount).toBe(1);
      await tfaLogin(api, user.auth, {
        tfa_method: 'sms',
        code,
        secret: response.body.secret,
      }).expect(200);
    });

    it('with a Bearer token, no secret and no SMS code pending: no_challenge_found', async () => {
      const user = await createTestUser(api);
      await addSms(api, user, testPhone());
      const response = await resendSms(api, user.auth, {});
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ success: false, error: 'no_challenge_found' });
    });

    it("a different phone number is phone_number_mismatch; the user's 6th SMS in 10 minutes is sms_rate_limited", async () => {
      const user = await createTestUser(api);
      const phone = testPhone();
      await addSms(api, user, phone);
      const sent = await sendSms(api, user.auth, {});
      const mismatch = await resendSms(api, user.auth, {
        secret: sent.body.secret,
        phone_number: testPhone(),
      });
      expect(mismatch.status).toBe(400);
      expect(mismatch.body.error).toBe('phone_number_mismatch');
      // Enrolment and the send were SMS 1 and 2; resends count too (a refused one does not).
      for (let i = 0; i < 3; i += 1)
        await resendSms(api, user.auth, { secret: sent.body.secret }).expect(200);
      const limited = await resendSms(api, user.auth, { secret: sent.body.secret });
      expect(limited.status).toBe(429);
      expect(limited.body.error).toBe('sms_rate_limited');
    });

    it('deprecated POST /tfa/resend/ behaves the same with a Deprecation header', async () => {
      const user = await createTestUser(api);
      const phone = testPhone();
      await addSms(api, user, phone);
      const sent = await sendSms(api, user.auth, {});
      const response = await api
        .http()
        .post('/api/v0/tfa/resend/')
        .set(user.auth)
        .send({ secret: sent.body.secret });
      expect(response.status).toBe(200);
      expect(response.headers.deprecation).toBe('true');
      expect(response.headers.link).toContain('/api/v0/tfa/sms/resend/');
      expect(response.body.msg).toBe('A 6-digit code has been sent to your phone');
    });
  });

  describe('POST /tfa/email/', () => {
    it('a fresh challenge and secret on every Bearer call', async () => {
      const user = await createTestUser(api);
      const before = await outboxCount(api, user.email);
      const first = await sendEmail(api, user.auth, {});
      const second = await sendEmail(api, user.auth, {});
      expect(first.body).toEqual({
        success: true,
        msg: '2FA code sent to your email address.',
        secret: expect.any(String),
      });
      expect(second.body.secret).not.toBe(first.body.secret);
      await readCode(api, user.email);
      await waitFor(
        () => outboxCount(api, user.email),
        (count) => count >= before + 2,
        { what: 'both messages in the outbox' },
      );
      expect(await outboxCount(api, user.email)).toBe(before + 2);
    });

    it('a 10 s flood of one user mails at most its budget, on every route; another user is served', async () => {
      const password = 'flood password';
      const user = await createTestUser(api, { password });
      await enableTotp(api, user); // its authorization code is the budget's first send
      const deadline = Date.now() + 10_000;
      const answers: Record<string, number> = {};
      const note = (route: string, response: { status: number; body: { error?: string } }) => {
        const key = `${route} ${response.status} ${response.body.error ?? ''}`.trim();
        answers[key] = (answers[key] ?? 0) + 1;
      };
      const bearer = async () => {
        while (Date.now() < deadline) note('bearer', await sendEmail(api, user.auth, {}));
      };
      // With the password alone: a login challenge each time, then a code by email on it.
      const passwordOnly = async () => {
        while (Date.now() < deadline) {
          const login = await passwordLogin(api, { email: user.email, password });
          note('password', await sendEmail(api, {}, { secret: login.body.tfa_secret }));
        }
      };
      await Promise.all([bearer(), bearer(), bearer(), passwordOnly()]);

      const codes = async () =>
        (await api.app.get(OutboxReader).list(user.email, 1000, 'code')).length;
      await waitFor(codes, (count) => count >= 5, { what: 'the admitted codes in the outbox' });
      expect(await codes()).toBe(5);
      const served = Object.entries(answers).filter(([key]) => / 200$/.test(key));
      expect(served.reduce((sum, [, n]) => sum + n, 0)).toBe(4);
      for (const key of Object.keys(answers))
        expect(key).toMatch(/^(bearer|password) (200|429 sms_rate_limited)$/);
      const refused = await sendEmail(api, user.auth, {});
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        success: false,
        error: 'sms_rate_limited',
        msg: 'Too many email codes requested; wait a few minutes before trying again.',
      });

      // Superseded challenges were freed at once: of the Bearer sends, one challenge is left.
      const store = redis(api);
      let verify = 0;
      for (const key of await store.keys('tfa:challenge:*')) {
        const [owner, purpose] = await store.hmget(key, 'userId', 'purpose');
        if (owner === String(user.id) && purpose === 'verify') verify += 1;
      }
      expect(verify).toBeLessThanOrEqual(1);

      const other = await createTestUser(api);
      expect((await sendEmail(api, other.auth, {})).status).toBe(200);
      expect(await readCode(api, other.email)).toMatch(/^\d{6}$/);
    });

    it('an account without an email address: missing_email', async () => {
      const user = await createTestUser(api);
      // Only one account can have the empty address (unique index): put it back afterwards.
      await sql(api, `UPDATE users SET email = 'x' || id || '@cleanup.test' WHERE email = ''`);
      await sql(api, `UPDATE users SET email = '' WHERE id = $1`, [user.id]);
      try {
        const response = await sendEmail(api, user.auth, {});
        expect(response.status).toBe(400);
        expect(response.body.error).toBe('missing_email');
      } finally {
        await sql(api, `UPDATE users SET email = $2 WHERE id = $1`, [user.id, user.email]);
      }
    });
  });

  it('provider failures have their statuses registered (twilio_error, preauth_phone_cap, ...)', () => {
    const catalog = api.app.get(ErrorCatalog);
    expect(catalog.resolve('twilio_error')?.status).toBe(400);
    expect(catalog.resolve('preauth_phone_cap')?.status).toBe(429);
    expect(catalog.resolve('sms_rate_limited')?.status).toBe(429);
    expect(catalog.resolve('sms_blocked_number')?.status).toBe(400);
    expect(catalog.resolve('sms_fraud_detected')?.status).toBe(403);
    expect(catalog.resolve('twilio_rate_limited')?.status).toBe(429);
  });

  it('manage outbox:list --to ADDRESS prints the delivered messages as JSON', async () => {
    const user = await createTestUser(api);
    const phone = testPhone();
    await sendSms(api, user.auth, { phone_number: phone }).expect(200);
    const code = await readCode(api, phone);
    const result = await runManage(['outbox:list', '--to', phone]);
    expect(result.code).toBe(0);
    const { messages } = result.json as { messages: Array<Record<string, unknown>> };
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ channel: 'sms', to: phone });
    expect(messages[0].body).toContain(code);
  });
});
