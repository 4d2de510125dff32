import { randomUUID } from 'node:crypto';
import { forgetRecentSend } from '@test/support/delivery';
import { createTestUser, startApi, TestApi, TestUser } from '@test/support/api';
import {
  addSms,
  enableTotp,
  forgetRecentSms,
  forgetTotpUse,
  ageFailures,
  failureState,
  readCode,
  redis,
  sql,
  testPhone,
  totpCode,
} from '@test/support/tfa';
import {
  passwordLogin,
  resendSms,
  sendEmail,
  sendSms,
  tfaStatus,
} from '@test/support/tfa-requests';

/** POST /api/v0/tfa/: the logged-out flow, the command-line flow, backup codes, expiry. */
describe('2FA login', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  async function passwordUser(options: { admin?: boolean } = {}) {
    const password = `pw-${randomUUID()}`;
    const user = await createTestUser(api, { password, ...options });
    return { user, password };
  }

  async function tfaChallenge(user: TestUser, password: string) {
    const response = await passwordLogin(api, { email: user.email, password });
    expect(response.body.tfa_required).toBe(true);
    return response.body as { tfa_secret: string; methods: Array<Record<string, unknown>> };
  }

  const tfaLogin = (body: Record<string, unknown>, user?: TestUser) => {
    const request = api.http().post('/api/v0/tfa/');
    if (user) request.set(user.auth);
    return request.send(body);
  };

  const wrongCode = (code: string) => (code === '000000' ? '111111' : '000000');

  describe('logged-out flow (password login -> tfa_secret -> code -> cookie)', () => {
    it('SMS: the session comes as cookie and header, never in the body', async () => {
      const { user, password } = await passwordUser();
      const phone = testPhone();
      await addSms(api, user, phone);
      const login = await tfaChallenge(user, password);
      expect(login.methods).toEqual([expect.objectContaining({ method: 'sms' })]);
      const sent = await sendSms(api, null, { secret: login.tfa_secret });
      expect(sent.status).toBe(200);
      expect(sent.body).toEqual({ success: true, msg: '2FA Sent', secret: login.tfa_secret });
      const response = await tfaLogin({
        tfa_method: 'sms',
        code: await readCode(api, phone),
        secret: login.tfa_secret,
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        success: true,
        id: user.id,
        email: user.email,
        full_name: expect.any(String),
        tfa_status: 'enabled',
      });
      expect(response.body).not.toHaveProperty('session_key');
      expect(response.body).not.toHaveProperty('legacy_tfa_user');
      expect(response.body).not.toHaveProperty('backup_codes_remaining');
      expect(response.headers['set-cookie'][0]).toMatch(
        /gm_session=.*HttpOnly.*Secure.*SameSite=Strict/,
      );
      const sessionKey = response.headers['x-session-key'];
      const me = await api
        .http()
        .get('/api/v0/users/current')
        .set('Authorization', `Bearer ${sessionKey}`);
      expect(me.body.id).toBe(user.id);
      // The secret was used up.
      const again = await tfaLogin({ tfa_method: 'sms', code: '123456', secret: login.tfa_secret });
      expect(again.status).toBe(400);
      expect(again.body.error).toBe('no_challenge_found');
    });

    it('TOTP and email with the secret alone', async () => {
      const { user, password } = await passwordUser();
      const totp = await enableTotp(api, user);
      const first = await tfaChallenge(user, password);
      const viaTotp = await tfaLogin({
        tfa_method: 'totp',
        code: totpCode(totp.secret),
        secret: first.tfa_secret,
      });
      expect(viaTotp.status).toBe(200);
      expect(viaTotp.headers['x-session-key']).toEqual(expect.any(String));
      const reuse = await tfaLogin({
        tfa_method: 'totp',
        code: totpCode(totp.secret),
        secret: first.tfa_secret,
      });
      expect(reuse.body.error).toBe('no_challenge_found');

      const second = await tfaChallenge(user, password);
      const email = await sendEmail(api, null, { secret: second.tfa_secret });
      expect(email.body).toEqual({
        success: true,
        msg: '2FA code sent to your email address.',
        secret: second.tfa_secret,
      });
      const viaEmail = await tfaLogin({
        code: await readCode(api, user.email),
        secret: second.tfa_secret,
      });
      expect(viaEmail.status).toBe(200);
      expect(viaEmail.body).not.toHaveProperty('session_key');
    });

    it('a backup code with the secret alone', async () => {
      const { user, password } = await passwordUser();
      const totp = await enableTotp(api, user);
      const login = await tfaChallenge(user, password);
      const response = await tfaLogin({
        backup_code: totp.backupCodes[0],
        secret: login.tfa_secret,
      });
      expect(response.status).toBe(200);
      expect(response.body.backup_codes_remaining).toBe(9);
      expect(response.body).not.toHaveProperty('session_key');
    });

    it('legacy account: SMS to the phone on file, legacy_tfa_user true', async () => {
      const password = `pw-${randomUUID()}`;
      const phone = testPhone();
      const user = await createTestUser(api, { password, phone, legacyTfa: true });
      const login = await tfaChallenge(user, password);
      expect(login.methods).toEqual([expect.objectContaining({ method: 'sms', legacy: true })]);
      await sendSms(api, null, { secret: login.tfa_secret }).expect(200);
      const code = await readCode(api, phone);
      const wrong = await tfaLogin({
        tfa_method: 'sms',
        code: wrongCode(code),
        secret: login.tfa_secret,
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toBe('2fa_login_failed');
      const response = await tfaLogin({ tfa_method: 'sms', code, secret: login.tfa_secret });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ tfa_status: 'legacy', legacy_tfa_user: true });
    });

    it('logged out, codes go only to numbers on file (phone_number_mismatch)', async () => {
      const { user, password } = await passwordUser();
      await addSms(api, user, testPhone());
      const login = await tfaChallenge(user, password);
      const response = await sendSms(api, null, {
        secret: login.tfa_secret,
        phone_number: testPhone(),
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('phone_number_mismatch');
    });
  });

  describe('command-line flow (API key -> session_key -> Bearer)', () => {
    it('TOTP with --method-id as a JSON string returns a session key that works as Bearer', async () => {
      const user = await createTestUser(api);
      const totp = await enableTotp(api, user);
      const response = await tfaLogin(
        { tfa_method_id: String(totp.methodId), code: totpCode(totp.secret) },
        user,
      );
      expect(response.status).toBe(200);
      expect(response.body.session_key).toMatch(/^gms_/);
      expect(response.body.session_key).not.toBe(user.apiKey);
      expect(response.headers['set-cookie']).toBeUndefined();
      const status = await api
        .http()
        .get('/api/v0/tfa/status/')
        .set('Authorization', `Bearer ${response.body.session_key}`);
      expect(status.status).toBe(200);
      expect(status.body.tfa_enabled).toBe(true);
    });

    it('send-sms then login with the returned secret', async () => {
      const user = await createTestUser(api);
      const phone = testPhone();
      const sms = await addSms(api, user, phone);
      const sent = await sendSms(api, user.auth, {});
      expect(sent.body).toMatchObject({
        success: true,
        msg: '2FA Sent',
        secret: expect.any(String),
      });
      const response = await tfaLogin(
        {
          tfa_method_id: String(sms.methodId),
          code: await readCode(api, phone),
          secret: sent.body.secret,
        },
        user,
      );
      expect(response.status).toBe(200);
      expect(response.body.session_key).toEqual(expect.any(String));
    });

    it('an admin session only for admin users', async () => {
      const admin = await createTestUser(api, { admin: true });
      const adminTotp = await enableTotp(api, admin);
      await tfaLogin(
        { tfa_method: 'totp', code: totpCode(adminTotp.secret), admin: true },
        admin,
      ).expect(200);
      const plain = await createTestUser(api);
      const plainTotp = await enableTotp(api, plain);
      await tfaLogin(
        { tfa_method: 'totp', code: totpCode(plainTotp.secret), admin: true },
        plain,
      ).expect(200);
      const sessions = await sql<Array<{ user_id: number; is_admin: boolean }>>(
        api,
        `SELECT user_id, is_admin FROM sessions WHERE user_id = ANY($1) ORDER BY id`,
        [[admin.id, plain.id]],
      );
      expect(sessions).toEqual([
        { user_id: admin.id, is_admin: true },
        { user_id: plain.id, is_admin: false },
      ]);
    });

    it('a TOTP code is accepted once per method (replay refused)', async () => {
      const user = await createTestUser(api);
      const totp = await enableTotp(api, user);
      const code = totpCode(totp.secret);
      await tfaLogin({ tfa_method: 'totp', code }, user).expect(200);
      const replay = await tfaLogin({ tfa_method: 'totp', code }, user);
      expect(replay.status).toBe(400);
      // A replay is refused but never counted: a double-click locks nobody.
      expect(replay.body).toMatchObject({
        error: '2fa_verification_failed',
        msg: expect.stringMatching(/already used/),
        fail_count: 0,
        locked_until: null,
      });
    });
  });

  describe('backup codes', () => {
    it('single use, case-insensitive, dashes optional; remaining count omitted at 0', async () => {
      const user = await createTestUser(api);
      const { backupCodes } = await enableTotp(api, user);
      const first = await tfaLogin({ backup_code: backupCodes[0].toLowerCase() }, user);
      expect(first.status).toBe(200);
      expect(first.body.backup_codes_remaining).toBe(9);
      const reused = await tfaLogin({ backup_code: backupCodes[0] }, user);
      expect(reused.status).toBe(401);
      expect(reused.body).toMatchObject({ success: false, error: 'invalid_backup_code' });
      for (let i = 1; i < 9; i += 1) {
        const response = await tfaLogin({ backup_code: backupCodes[i].replace(/-/g, '') }, user);
        expect(response.body.backup_codes_remaining).toBe(9 - i);
      }
      const last = await tfaLogin({ backup_code: backupCodes[9] }, user);
      expect(last.status).toBe(200);
      expect(last.body).not.toHaveProperty('backup_codes_remaining');
      const garbage = await tfaLogin({ backup_code: 'not-a-code' }, user);
      expect(garbage.status).toBe(400);
      expect(garbage.body.error).toBe('bad_request');
    });

    it('20 parallel logins with one backup code: exactly one 200', async () => {
      const user = await createTestUser(api);
      const { backupCodes } = await enableTotp(api, user);
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => tfaLogin({ backup_code: backupCodes[3] }, user)),
      );
      expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
      expect(
        responses.filter((r) => r.status === 401 && r.body.error === 'invalid_backup_code'),
      ).toHaveLength(19);
    });
  });

  describe('failures, expiry and lockout', () => {
    it('20 parallel logins with one TOTP code: exactly one 200', async () => {
      const user = await createTestUser(api);
      const totp = await enableTotp(api, user);
      const code = totpCode(totp.secret);
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => tfaLogin({ tfa_method: 'totp', code }, user)),
      );
      expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
      // The others are replays: refused, never counted, so nobody is locked out.
      for (const r of responses.filter((r) => r.status !== 200))
        expect(r.body).toMatchObject({ error: '2fa_verification_failed', fail_count: 0 });
      expect(await failureState(api, user.id, 'totp')).toEqual({ failCount: 0, lockedUntil: null });
    });

    it('5 failures lock the method for 15 minutes; the other method keeps working; the lock ends', async () => {
      const user = await createTestUser(api);
      const totp = await enableTotp(api, user);
      const phone = testPhone();
      await addSms(api, user, phone, { authorize: false });
      const good = totpCode(totp.secret);
      for (let i = 1; i <= 4; i += 1) {
        const response = await tfaLogin({ tfa_method: 'totp', code: wrongCode(good) }, user);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({
          success: false,
          error: '2fa_verification_failed',
          msg: expect.any(String),
          fail_count: i,
          locked_until: null,
        });
      }
      const before = Math.floor(Date.now() / 1000);
      const locked = await tfaLogin({ tfa_method: 'totp', code: wrongCode(good) }, user);
      expect(locked.status).toBe(429);
      expect(locked.body).toMatchObject({ success: false, error: 'tfa_locked', fail_count: 5 });
      expect(locked.body.locked_until).toBeGreaterThanOrEqual(before + 15 * 60);
      expect(locked.body.locked_until).toBeLessThanOrEqual(before + 15 * 60 + 2);
      // Even the correct code is refused while locked.
      const refused = await tfaLogin({ tfa_method: 'totp', code: good }, user);
      expect(refused.status).toBe(429);
      expect(refused.body.error).toBe('tfa_locked');
      // The SMS method is not locked.
      const sent = await sendSms(api, user.auth, {});
      const viaSms = await tfaLogin(
        { tfa_method: 'sms', code: await readCode(api, phone), secret: sent.body.secret },
        user,
      );
      expect(viaSms.status).toBe(200);
      const status = await tfaStatus(api, user.auth);
      const lockedRecord = status.body.methods.find((m: { method: string }) => m.method === 'totp');
      expect(lockedRecord).toMatchObject({ fail_count: 5, locked_until: locked.body.locked_until });
      // 15 minutes pass.
      await ageFailures(api, user.id);
      await tfaLogin({ tfa_method: 'totp', code: good }, user).expect(200);
      const after = await tfaStatus(api, user.auth);
      expect(after.body.methods.find((m: { method: string }) => m.method === 'totp')).toMatchObject(
        {
          fail_count: 0,
          locked_until: null,
        },
      );
    });

    it('50 parallel wrong codes get no more than 5 comparisons', async () => {
      const user = await createTestUser(api);
      const totp = await enableTotp(api, user);
      const wrong = wrongCode(totpCode(totp.secret));
      const responses = await Promise.all(
        Array.from({ length: 50 }, () => tfaLogin({ tfa_method: 'totp', code: wrong }, user)),
      );
      expect(responses.filter((r) => r.body.error === '2fa_verification_failed')).toHaveLength(4);
      expect(
        responses.filter((r) => r.status === 429 && r.body.error === 'tfa_locked'),
      ).toHaveLength(46);
      expect((await failureState(api, user.id, 'totp')).failCount).toBe(5);
    });

    it('a success resets the count; a resend or new challenge does not', async () => {
      const user = await createTestUser(api);
      const phone = testPhone();
      const sms = await addSms(api, user, phone);
      const first = await sendSms(api, user.auth, {});
      const code = await readCode(api, phone);
      for (let i = 0; i < 2; i += 1)
        await tfaLogin(
          { tfa_method: 'sms', code: wrongCode(code), secret: first.body.secret },
          user,
        ).expect(400);
      const resent = await resendSms(api, user.auth, { secret: first.body.secret });
      expect(resent.status).toBe(200);
      const resentCode = await readCode(api, phone);
      const third = await tfaLogin(
        { tfa_method: 'sms', code: wrongCode(resentCode), secret: first.body.secret },
        user,
      );
      expect(third.body.fail_count).toBe(3);
      await forgetRecentSms(api, user.id);
      await forgetRecentSend(api, phone);
      const fresh = await sendSms(api, user.auth, { tfa_method_id: sms.methodId });
      const freshCode = await readCode(api, phone);
      const fourth = await tfaLogin(
        { tfa_method: 'sms', code: wrongCode(freshCode), secret: fresh.body.secret },
        user,
      );
      expect(fourth.body).toMatchObject({ error: '2fa_verification_failed', fail_count: 4 });
      await tfaLogin(
        { tfa_method: 'sms', code: freshCode, secret: fresh.body.secret },
        user,
      ).expect(200);
      expect((await failureState(api, user.id, 'sms')).failCount).toBe(0);
    });

    it('5 wrong email codes lock the email channel, on that challenge or any new one', async () => {
      const user = await createTestUser(api);
      await enableTotp(api, user);
      const sent = await sendEmail(api, user.auth, {});
      const code = await readCode(api, user.email);
      for (let i = 0; i < 4; i += 1) {
        const response = await tfaLogin(
          { tfa_method: 'email', code: wrongCode(code), secret: sent.body.secret },
          user,
        );
        expect(response.body.error).toBe('2fa_login_failed');
      }
      const fifth = await tfaLogin(
        { tfa_method: 'email', code: wrongCode(code), secret: sent.body.secret },
        user,
      );
      expect(fifth.status).toBe(429);
      expect(fifth.body).toMatchObject({ error: 'tfa_locked', fail_count: 5 });
      const late = await tfaLogin({ tfa_method: 'email', code, secret: sent.body.secret }, user);
      expect(late.status).toBe(429);
      const again = await sendEmail(api, user.auth, {});
      const fresh = await tfaLogin(
        {
          tfa_method: 'email',
          code: await readCode(api, user.email),
          secret: again.body.secret,
        },
        user,
      );
      expect(fresh.status).toBe(429);
      expect(fresh.body.error).toBe('tfa_locked');
    });

    it('after 10 minutes the challenge is expired (2fa_expired)', async () => {
      const user = await createTestUser(api);
      await enableTotp(api, user);
      const sent = await sendEmail(api, user.auth, {});
      const code = await readCode(api, user.email);
      const store = redis(api);
      const keys = await store.keys('tfa:challenge:*');
      for (const key of keys) {
        const fields = await store.hgetall(key);
        if (Number(fields.userId) === user.id)
          await store.hset(key, 'createdAt', String(Date.now() - 10 * 60 * 1000 - 1));
      }
      const response = await tfaLogin(
        { tfa_method: 'email', code, secret: sent.body.secret },
        user,
      );
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ success: false, error: '2fa_expired' });
      // Once Redis has dropped it (TTL), the answer is the same.
      for (const key of keys) {
        const fields = await store.hgetall(key);
        if (Number(fields.userId) === user.id) await store.del(key);
      }
      const dropped = await tfaLogin({ tfa_method: 'email', code, secret: sent.body.secret }, user);
      expect(dropped.body.error).toBe('2fa_expired');
    });

    it('unknown secret: challenge_not_found; missing code: missing_auth_value (400); no secret for SMS: missing_params', async () => {
      const user = await createTestUser(api);
      await addSms(api, user, testPhone());
      const unknown = await tfaLogin({
        tfa_method: 'sms',
        code: '123456',
        secret: 'never-issued-secret',
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toBe('challenge_not_found');
      const noCode = await tfaLogin({ tfa_method: 'totp' }, user);
      expect(noCode.status).toBe(400);
      expect(noCode.body.error).toBe('missing_auth_value');
      const noSecret = await tfaLogin({ tfa_method: 'sms', code: '123456' }, user);
      expect(noSecret.status).toBe(400);
      expect(noSecret.body.error).toBe('missing_params');
    });

    it('2fa_login_failed without a verifiable context (no 2FA, SMS with no SMS method)', async () => {
      const plain = await createTestUser(api);
      const none = await tfaLogin({ tfa_method: 'totp', code: '123456' }, plain);
      expect(none.status).toBe(400);
      expect(none.body.error).toBe('2fa_login_failed');
      const user = await createTestUser(api);
      await enableTotp(api, user);
      const phone = testPhone();
      const sent = await sendSms(api, user.auth, { phone_number: phone });
      const response = await tfaLogin(
        { tfa_method: 'sms', code: await readCode(api, phone), secret: sent.body.secret },
        user,
      );
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('2fa_login_failed');
      expect(response.body).not.toHaveProperty('fail_count');
    });

    it('an undecryptable TOTP secret is tfa_method_not_configured', async () => {
      const user = await createTestUser(api);
      const totp = await enableTotp(api, user);
      await sql(
        api,
        `UPDATE tfa_methods SET totp_secret_ciphertext = 'v1.AAAA.BBBB.CCCC' WHERE id = $1`,
        [totp.methodId],
      );
      const response = await tfaLogin({ tfa_method: 'totp', code: totpCode(totp.secret) }, user);
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('tfa_method_not_configured');
      await forgetTotpUse(api, totp.methodId);
    });

    it("another user's tfa_method_id is not_found", async () => {
      const user = await createTestUser(api);
      await enableTotp(api, user);
      const other = await createTestUser(api);
      const otherTotp = await enableTotp(api, other);
      const response = await tfaLogin(
        { tfa_method_id: String(otherTotp.methodId), code: totpCode(otherTotp.secret) },
        user,
      );
      expect(response.status).toBe(404);
      expect(response.body.error).toBe('not_found');
    });
  });
});
