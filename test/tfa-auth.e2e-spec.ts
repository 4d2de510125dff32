import { randomUUID } from 'node:crypto';
import { createTestUser, loadFixtures, startApi, TestApi, TestUser } from '@test/support/api';
import { addSms, enableTotp, readCode, sql, testPhone, totpCode } from '@test/support/tfa';
import {
  confirmAuthorization,
  confirmNew,
  confirmTotp,
  passwordLogin,
  regenBackupCodes,
  removeMethod,
  resendSms,
  sendEmail,
  sendSms,
  startAuthorization,
  tfaLogin,
  updateMethod,
} from '@test/support/tfa-requests';

type Method = 'get' | 'post' | 'put' | 'delete';

/** Valid bodies, so only authentication decides the answer. */
const BEARER_ONLY: Array<[Method, string, Record<string, unknown>]> = [
  ['get', '/api/v0/tfa/status/', {}],
  ['post', '/api/v0/tfa/authorize-new-method/', { tfa_method: 'email' }],
  ['put', '/api/v0/tfa/authorize-new-method/', { code: '123456', secret: 's' }],
  ['post', '/api/v0/tfa/totp-setup/', {}],
  ['post', '/api/v0/tfa/confirm-new/', { tfa_method: 'totp', code: '123456', secret: 's' }],
  ['delete', '/api/v0/tfa/', { tfa_method: 'totp', code: '123456', secret: 's' }],
  ['put', '/api/v0/tfa/update/', { tfa_method: 'totp', label: 'x', secret: 's' }],
  ['put', '/api/v0/tfa/regen-backup-codes/', { tfa_method: 'totp', code: '123456', secret: 's' }],
  ['post', '/api/v0/tfa/test-submit/', { tfa_method: 'totp', code: '123456', secret: 's' }],
];
const SECRET_OR_BEARER: Array<[Method, string, Record<string, unknown>]> = [
  ['post', '/api/v0/tfa/', { tfa_method: 'totp', code: '123456' }],
  ['post', '/api/v0/tfa/email/', {}],
  ['post', '/api/v0/tfa/sms/', { phone_number: '+15550001111' }],
  ['post', '/api/v0/tfa/sms/resend/', { phone_number: '+15550001111' }],
  ['post', '/api/v0/tfa/test/', { phone_number: '+15550001111' }],
  ['post', '/api/v0/tfa/resend/', { phone_number: '+15550001111' }],
];

/** The per-endpoint authentication table of docs/identity-tfa.md, and body validation. */
describe('2FA authentication rules', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  const call = (method: Method, path: string, body: Record<string, unknown>, auth?: string) => {
    const request = api.http()[method](path);
    if (auth !== undefined) request.set('Authorization', auth);
    return method === 'get' ? request : request.send(body);
  };

  it.each(BEARER_ONLY)(
    '%s %s without Authorization: 403 auth_error, even with a secret',
    async (method, path, body) => {
      const response = await call(method, path, { ...body, secret: 'some-secret' });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        success: false,
        error: 'auth_error',
        msg: 'This action requires login.',
      });
    },
  );

  it.each(SECRET_OR_BEARER)(
    '%s %s with neither secret nor Bearer: 401 missing_auth_value',
    async (method, path, body) => {
      const response = await call(method, path, body);
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ success: false, error: 'missing_auth_value' });
    },
  );

  it.each([...BEARER_ONLY, ...SECRET_OR_BEARER])(
    '%s %s with an unknown key: 404 Invalid user key',
    async (method, path, body) => {
      const response = await call(method, path, body, `Bearer nobody-${randomUUID()}`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({
        success: false,
        error: 'auth_error',
        msg: 'Invalid user key',
      });
    },
  );

  describe('team context', () => {
    let teamAuth: string;
    let user: TestUser;

    beforeAll(async () => {
      user = await createTestUser(api);
      const key = `team-key-${randomUUID()}`;
      await loadFixtures(api, {
        teams: [
          { id: 4401, name: 'tfa-team', members: [user.id], api_keys: [{ user_id: user.id, key }] },
        ],
      });
      teamAuth = `Bearer ${key}`;
    });

    it.each([...BEARER_ONLY, ...SECRET_OR_BEARER])(
      '%s %s: 403 team_user_forbidden',
      async (method, path, body) => {
        const response = await call(method, path, body, teamAuth);
        expect(response.status).toBe(403);
        expect(response.body).toMatchObject({ success: false, error: 'team_user_forbidden' });
      },
    );

    it('the same user in the personal context is served', async () => {
      await call('get', '/api/v0/tfa/status/', {}, user.auth.Authorization).expect(200);
    });
  });

  describe('logged-in Bearer (a session key) is accepted like an API key', () => {
    it('status, totp-setup, email, sms and resend work with a session key', async () => {
      const password = `pw-${randomUUID()}`;
      const user = await createTestUser(api, { password });
      const login = await passwordLogin(api, { email: user.email, password });
      const auth = `Bearer ${login.body.session_key}`;
      await call('get', '/api/v0/tfa/status/', {}, auth).expect(200);
      await call('post', '/api/v0/tfa/totp-setup/', {}, auth).expect(200);
      await call('post', '/api/v0/tfa/email/', {}, auth).expect(200);
      const phone = testPhone();
      const sms = await call('post', '/api/v0/tfa/sms/', { phone_number: phone }, auth);
      expect(sms.status).toBe(200);
      // A missing secret is recovered: resend without it opens a fresh challenge.
      const resend = await call('post', '/api/v0/tfa/sms/resend/', { phone_number: phone }, auth);
      expect(resend.status).toBe(200);
      expect(resend.body.secret).not.toBe(sms.body.secret);
    });

    it('the whole add/manage cycle works with a session key (Bearer plus secret where needed)', async () => {
      const password = `pw-${randomUUID()}`;
      const user = await createTestUser(api, { password });
      const login = await passwordLogin(api, { email: user.email, password });
      const session = { Authorization: `Bearer ${login.body.session_key}` };
      const start = await startAuthorization(api, session, {});
      expect(start.status).toBe(200);
      await confirmAuthorization(api, session, {
        secret: start.body.secret,
        code: await readCode(api, user.email),
      }).expect(200);
      const { response: confirm } = await confirmTotp(api, session);
      expect(confirm.status).toBe(200);
      await updateMethod(api, session, {
        tfa_method_id: confirm.body.method.id,
        label: 'Laptop',
      }).expect(200);
      const regen = await regenBackupCodes(api, session, {
        backup_code: confirm.body.backup_codes[0],
      });
      expect(regen.status).toBe(200);
      const removed = await removeMethod(api, session, {
        backup_code: regen.body.backup_codes[0],
        target_id: confirm.body.method.id,
      });
      expect(removed.body).toEqual({ success: true, msg: '2FA Successfully Disabled' });
    });

    it('an expired session key: 404 Session expired', async () => {
      const password = `pw-${randomUUID()}`;
      const user = await createTestUser(api, { password });
      const login = await passwordLogin(api, { email: user.email, password });
      await sql(
        api,
        `UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`,
        [user.id],
      );
      const response = await call(
        'get',
        '/api/v0/tfa/status/',
        {},
        `Bearer ${login.body.session_key}`,
      );
      expect(response.status).toBe(404);
      expect(response.body.msg).toBe('Session expired. Please log in again.');
    });
  });

  describe('logged out (secret only)', () => {
    it('resend works with the login secret alone', async () => {
      const password = `pw-${randomUUID()}`;
      const user = await createTestUser(api, { password });
      const phone = testPhone();
      await addSms(api, user, phone);
      const login = await passwordLogin(api, { email: user.email, password });
      await sendSms(api, null, { secret: login.body.tfa_secret }).expect(200);
      await readCode(api, phone);
      const resend = await resendSms(api, null, { secret: login.body.tfa_secret });
      expect(resend.status).toBe(200);
      expect(resend.body).toEqual({
        success: true,
        msg: 'A 6-digit code has been sent to your phone',
        secret: login.body.tfa_secret,
      });
      const response = await tfaLogin(api, null, {
        tfa_method: 'sms',
        code: await readCode(api, phone),
        secret: login.body.tfa_secret,
      });
      expect(response.status).toBe(200);
    });

    it('only a password-login secret is a credential: a Bearer-issued secret is refused', async () => {
      const user = await createTestUser(api);
      const totp = await enableTotp(api, user);
      const email = await sendEmail(api, user.auth, {});
      const response = await tfaLogin(api, null, {
        tfa_method: 'totp',
        code: totpCode(totp.secret),
        secret: email.body.secret,
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('challenge_not_found');
    });

    it("a secret cannot be used with another user's Bearer token", async () => {
      const owner = await createTestUser(api);
      await enableTotp(api, owner);
      const sent = await sendEmail(api, owner.auth, {});
      const code = await readCode(api, owner.email);
      const intruder = await createTestUser(api);
      await enableTotp(api, intruder);
      const response = await tfaLogin(api, intruder.auth, {
        tfa_method: 'email',
        code,
        secret: sent.body.secret,
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('challenge_not_found');
    });
  });

  describe('body validation', () => {
    let user: TestUser;
    beforeAll(async () => {
      user = await createTestUser(api);
    });

    it('malformed JSON is bad_request', async () => {
      const response = await api
        .http()
        .post('/api/v0/tfa/')
        .set(user.auth)
        .set('Content-Type', 'application/json')
        .send('{"code": ');
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('bad_request');
    });

    it.each([
      [{ tfa_method: 'voice', code: '123456' }, 'tfa_method'],
      [{ tfa_method: 'totp', code: 123456 }, 'code'],
      [{ tfa_method_id: 'abc', code: '123456' }, 'tfa_method_id'],
      [{ tfa_method_id: -3, code: '123456' }, 'tfa_method_id'],
      [{ tfa_method: 'totp', code: '123456', admin: 'yes' }, 'admin'],
      [{ backup_code: 42 }, 'backup_code'],
    ])('POST /tfa/ %j is bad_request naming %s', async (body, field) => {
      const response = await tfaLogin(api, user.auth, body);
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('bad_request');
      expect(response.body.msg).toContain(field);
    });

    it('DELETE target_id must be an integer', async () => {
      const response = await removeMethod(api, user.auth, {
        backup_code: 'AAAA-BBBB-CCCC',
        target_id: 'x',
      });
      expect(response.status).toBe(400);
      expect(response.body.msg).toContain('target_id');
    });
  });

  describe('Redis unavailable', () => {
    let down: TestApi;
    let user: TestUser;

    beforeAll(async () => {
      down = await startApi({ REDIS_URL: 'redis://127.0.0.1:6391/3', RUN_WORKER: 'false' });
      user = await createTestUser(down);
      await addSmsDirect(user.id);
    });
    afterAll(() => down.close());

    async function addSmsDirect(userId: number) {
      await sql(
        down,
        `INSERT INTO tfa_methods (user_id, method, label, phone_number, is_primary) VALUES ($1, 'sms', 'x', $2, true)`,
        [userId, testPhone()],
      );
    }

    it('the add-method gate fails closed: 503 service_unavailable', async () => {
      const response = await confirmNew(down, user.auth, {
        tfa_method: 'totp',
        code: '123456',
        secret: 'JBSWY3DPEHPK3PXPJBSWY3DP',
      });
      expect(response.status).toBe(503);
      expect(response.body).toMatchObject({ success: false, error: 'service_unavailable' });
    });

    it('authorize-new-method cannot create its challenge: 500 challenge_creation_failed', async () => {
      const response = await startAuthorization(down, user.auth, { tfa_method: 'email' });
      expect(response.status).toBe(500);
      expect(response.body).toMatchObject({ success: false, error: 'challenge_creation_failed' });
    });
  });
});
