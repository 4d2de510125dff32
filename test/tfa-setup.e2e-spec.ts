import { createTestUser, startApi, TestApi, TestUser } from '@test/support/api';
import {
  addSms,
  authorizeByEmail,
  enableTotp,
  forgetTotpUse,
  readCode,
  redis,
  sql,
  testPhone,
  totpCode,
} from '@test/support/tfa';
import {
  confirmAuthorization,
  confirmNew,
  confirmTotp,
  sendEmail,
  sendSms,
  startAuthorization,
  tfaStatus,
  totpSetup,
  updateMethod,
} from '@test/support/tfa-requests';

/** Adding methods: status, totp-setup, authorize-new-method (both steps), confirm-new, update. */
describe('2FA setup', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  const status = (user: TestUser) => tfaStatus(api, user.auth);

  describe('GET /tfa/status/', () => {
    it('reports a user without 2FA', async () => {
      const user = await createTestUser(api);
      const response = await status(user);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        tfa_enabled: false,
        tfa_status: 'disabled',
        methods: [],
        backup_codes_remaining: 0,
        new_method_authorized: false,
      });
    });

    it('lists method records with masked phone, numeric fail_count and no TOTP secret', async () => {
      const user = await createTestUser(api);
      const totp = await enableTotp(api, user);
      const phone = testPhone();
      await addSms(api, user, phone, { authorize: false });
      const response = await status(user);
      expect(response.body.tfa_enabled).toBe(true);
      expect(response.body.backup_codes_remaining).toBe(10);
      expect(response.body.new_method_authorized).toBe(true);
      const [first, second] = response.body.methods;
      expect(first).toEqual({
        id: totp.methodId,
        user_id: user.id,
        method: 'totp',
        label: 'Authenticator app',
        phone_number: null,
        is_primary: true,
        fail_count: 0,
        locked_until: null,
        created_at: expect.any(Number),
        last_used: null,
      });
      expect(second).toMatchObject({ method: 'sms', is_primary: false, fail_count: 0 });
      expect(second.phone_number).toBe(`${'*'.repeat(phone.length - 4)}${phone.slice(-4)}`);
      expect(JSON.stringify(response.body)).not.toContain(totp.secret);
    });
  });

  describe('POST /tfa/totp-setup/', () => {
    it('returns a 160-bit base32 secret and an otpauth URI, and adds no method', async () => {
      const user = await createTestUser(api);
      const response = await totpSetup(api, user.auth, {});
      expect(response.status).toBe(200);
      expect(response.body.success).toBe(true);
      expect(response.body.secret).toMatch(/^[A-Z2-7]{32}$/);
      const uri = new URL(response.body.provisioning_uri);
      expect(uri.protocol).toBe('otpauth:');
      expect(response.body.provisioning_uri).toContain(
        `otpauth://totp/GPU%20Marketplace:${encodeURIComponent(user.email)}?`,
      );
      expect(uri.searchParams.get('secret')).toBe(response.body.secret);
      expect(uri.searchParams.get('issuer')).toBe('GPU Marketplace');
      expect((await status(user)).body.methods).toEqual([]);
    });
  });

  describe('authorize-new-method', () => {
    it('forces email for a user without methods and grants 30 minutes after the PUT', async () => {
      const user = await createTestUser(api);
      const start = await startAuthorization(api, user.auth, { tfa_method: 'sms' });
      expect(start.status).toBe(200);
      expect(start.body).toEqual({ success: true, secret: expect.any(String) });
      const code = await readCode(api, user.email);
      expect((await status(user)).body.new_method_authorized).toBe(false);
      const confirm = await confirmAuthorization(api, user.auth, {
        secret: start.body.secret,
        code,
      });
      expect(confirm.status).toBe(200);
      expect(confirm.body).toEqual({ success: true, msg: 'Authorization successful.' });
      expect((await status(user)).body.new_method_authorized).toBe(true);
      const ttl = await redis(api).pttl(`tfa:add-method-authorized:${user.id}`);
      expect(ttl).toBeGreaterThan(29 * 60 * 1000);
      expect(ttl).toBeLessThanOrEqual(30 * 60 * 1000);
    });

    it('authorizes directly with a backup code (no code round-trip)', async () => {
      const user = await createTestUser(api);
      const totp = await enableTotp(api, user);
      await redis(api).del(`tfa:add-method-authorized:${user.id}`);
      const response = await startAuthorization(api, user.auth, {
        backup_code: totp.backupCodes[0],
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, msg: 'Authorization successful.' });
      expect((await status(user)).body.new_method_authorized).toBe(true);
    });

    it('authorizes with a TOTP code on the PUT step (no email verification needed)', async () => {
      const user = await createTestUser(api);
      const totp = await enableTotp(api, user);
      await redis(api).del(`tfa:add-method-authorized:${user.id}`);
      await sql(api, `UPDATE users SET email_verified_at = NULL WHERE id = $1`, [user.id]);
      const start = await startAuthorization(api, user.auth, {
        tfa_method_id: String(totp.methodId),
      });
      expect(start.status).toBe(200);
      const confirm = await confirmAuthorization(api, user.auth, {
        secret: start.body.secret,
        code: totpCode(totp.secret),
      });
      expect(confirm.status).toBe(200);
      expect((await status(user)).body.new_method_authorized).toBe(true);
    });

    it('sends the authorization code by SMS to an SMS method', async () => {
      const user = await createTestUser(api);
      const phone = testPhone();
      await addSms(api, user, phone);
      await redis(api).del(`tfa:add-method-authorized:${user.id}`);
      const start = await startAuthorization(api, user.auth, { tfa_method: 'sms' });
      expect(start.status).toBe(200);
      const confirm = await confirmAuthorization(api, user.auth, {
        secret: start.body.secret,
        code: await readCode(api, phone),
      });
      expect(confirm.status).toBe(200);
    });

    it('PUT without a prior POST: no_pending_authorization; missing fields: missing_params', async () => {
      const user = await createTestUser(api);
      const none = await confirmAuthorization(api, user.auth, {
        secret: 'never-issued',
        code: '123456',
      });
      expect(none.status).toBe(400);
      expect(none.body).toMatchObject({ success: false, error: 'no_pending_authorization' });
      const missing = await confirmAuthorization(api, user.auth, { code: '123456' });
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe('missing_params');
    });

    it('a field sent as null is a field left out: the same answer as without it', async () => {
      const user = await createTestUser(api, { phone: '+15555550142' });
      const answer = async (method: 'post' | 'put', path: string, body: object) => {
        const response = await api.http()[method](path).set(user.auth).send(body);
        return { status: response.status, error: response.body.error, msg: response.body.msg };
      };
      for (const [method, path, body] of [
        ['put', '/api/v0/tfa/authorize-new-method/', { backup_code: null }],
        ['put', '/api/v0/tfa/authorize-new-method/', { code: '123456', backup_code: null }],
        ['put', '/api/v0/tfa/update/', { tfa_method: 'sms', label: 'x', is_primary: null }],
        ['delete', '/api/v0/tfa/', { backup_code: null, target_id: null }],
      ] as const) {
        const {
          backup_code: _b,
          target_id: _t,
          is_primary: _p,
          ...without
        } = body as Record<string, unknown>;
        const verb = method === 'delete' ? 'delete' : method;
        const withNull = await api.http()[verb](path).set(user.auth).send(body);
        const leftOut = await api.http()[verb](path).set(user.auth).send(without);
        expect({ path, status: withNull.status, body: withNull.body }).toEqual({
          path,
          status: leftOut.status,
          body: leftOut.body,
        });
        expect(withNull.status).toBeLessThan(500);
      }
      // A phone number of null is no phone number: the user's own is used.
      const sms = await answer('post', '/api/v0/tfa/sms/', { phone_number: null });
      expect(sms.status).toBe(200);
    });

    it('PUT with a login secret is not a pending authorization', async () => {
      const user = await createTestUser(api);
      const sent = await sendEmail(api, user.auth, {});
      const response = await confirmAuthorization(api, user.auth, {
        secret: sent.body.secret,
        code: await readCode(api, user.email),
      });
      expect(response.body.error).toBe('no_pending_authorization');
      expect((await status(user)).body.new_method_authorized).toBe(false);
    });

    it('a wrong code on the PUT step fails and grants nothing', async () => {
      const user = await createTestUser(api);
      const start = await startAuthorization(api, user.auth, {});
      const code = await readCode(api, user.email);
      const wrong = code === '000000' ? '111111' : '000000';
      const response = await confirmAuthorization(api, user.auth, {
        secret: start.body.secret,
        code: wrong,
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('2fa_verification_failed');
      // Email codes are counted per user like a method's: the body says how many.
      expect(response.body).toMatchObject({ fail_count: 1, locked_until: null });
      expect((await status(user)).body.new_method_authorized).toBe(false);
    });

    it('the email flow needs a verified email', async () => {
      const user = await createTestUser(api, { verified: false });
      const response = await startAuthorization(api, user.auth, { tfa_method: 'email' });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('email_not_verified');
    });

    it("an unknown method type the user lacks is invalid_tfa_method; another user's id is 404", async () => {
      const user = await createTestUser(api);
      await enableTotp(api, user);
      const noSms = await startAuthorization(api, user.auth, { tfa_method: 'sms' });
      expect(noSms.status).toBe(400);
      expect(noSms.body.error).toBe('invalid_tfa_method');
      const other = await createTestUser(api);
      const otherTotp = await enableTotp(api, other);
      const foreign = await startAuthorization(api, user.auth, {
        tfa_method_id: otherTotp.methodId,
      });
      expect(foreign.status).toBe(404);
      expect(foreign.body.error).toBe('not_found');
    });

    it('the window closes after 30 minutes: confirm-new answers authorization_required', async () => {
      const user = await createTestUser(api);
      await authorizeByEmail(api, user);
      // 30 minutes pass: move the grant time back instead of waiting.
      await redis(api).set(
        `tfa:add-method-authorized:${user.id}`,
        String(Date.now() - 30 * 60 * 1000 - 1),
        'PX',
        60_000,
      );
      expect((await status(user)).body.new_method_authorized).toBe(false);
      const { response } = await confirmTotp(api, user.auth);
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ success: false, error: 'authorization_required' });
    });
  });

  describe('POST /tfa/confirm-new/', () => {
    it('the first method enables 2FA and returns 10 backup codes once', async () => {
      const user = await createTestUser(api);
      await authorizeByEmail(api, user);
      const { setup, response } = await confirmTotp(api, user.auth, { label: 'Phone app' });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        success: true,
        msg: 'TOTP 2FA method added successfully',
        method: { method: 'totp', label: 'Phone app', is_primary: true },
      });
      expect(response.body.backup_codes).toHaveLength(10);
      for (const code of response.body.backup_codes)
        expect(code).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
      expect(new Set(response.body.backup_codes).size).toBe(10);
      const me = await api.http().get('/api/v0/users/current').set(user.auth);
      expect(me.body).toMatchObject({ tfa_enabled: true, tfa_status: 'enabled' });
      // Stored encrypted and as digests only.
      const [row] = await sql<Array<{ totp_secret_ciphertext: string }>>(
        api,
        `SELECT totp_secret_ciphertext FROM tfa_methods WHERE user_id = $1`,
        [user.id],
      );
      expect(row.totp_secret_ciphertext).toMatch(/^v\d+\./);
      expect(row.totp_secret_ciphertext).not.toContain(setup.body.secret);
      const digests = await sql<Array<{ code_digest: string }>>(
        api,
        `SELECT code_digest FROM tfa_backup_codes WHERE user_id = $1`,
        [user.id],
      );
      const dump = JSON.stringify(digests);
      for (const code of response.body.backup_codes) {
        expect(dump).not.toContain(code);
        expect(dump).not.toContain(code.replace(/-/g, ''));
      }
    });

    it('a further method of a new type is added without backup codes', async () => {
      const user = await createTestUser(api);
      await enableTotp(api, user);
      const phone = testPhone();
      const sent = await sendSms(api, user.auth, { phone_number: phone });
      const response = await confirmNew(api, user.auth, {
        tfa_method: 'sms',
        code: await readCode(api, phone),
        secret: sent.body.secret,
        phone_number: phone,
      });
      expect(response.status).toBe(200);
      expect(response.body.msg).toBe('SMS 2FA method added successfully');
      expect(response.body).not.toHaveProperty('backup_codes');
      expect((await status(user)).body.methods).toHaveLength(2);
    });

    it('the same type twice is duplicate_tfa_method', async () => {
      const user = await createTestUser(api);
      await enableTotp(api, user);
      const { response } = await confirmTotp(api, user.auth);
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('duplicate_tfa_method');
    });

    it('without authorization: authorization_required (403)', async () => {
      const user = await createTestUser(api);
      const { response } = await confirmTotp(api, user.auth);
      expect(response.status).toBe(403);
      expect(response.body.error).toBe('authorization_required');
    });

    it('email cannot be added (invalid_tfa_method); an unknown type is bad_request', async () => {
      const user = await createTestUser(api);
      const email = await confirmNew(api, user.auth, {
        tfa_method: 'email',
        code: '123456',
        secret: 'x',
      });
      expect(email.status).toBe(400);
      expect(email.body.error).toBe('invalid_tfa_method');
      const unknown = await confirmNew(api, user.auth, {
        tfa_method: 'voice',
        code: '123456',
        secret: 'x',
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toBe('bad_request');
      expect(unknown.body.msg).toContain('tfa_method');
    });

    it('a wrong TOTP code adds nothing; a label over 30 characters is bad_request', async () => {
      const user = await createTestUser(api);
      await authorizeByEmail(api, user);
      const setup = await totpSetup(api, user.auth, {});
      const good = totpCode(setup.body.secret);
      const wrong = await confirmNew(api, user.auth, {
        tfa_method: 'totp',
        code: good === '000000' ? '111111' : '000000',
        secret: setup.body.secret,
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toBe('2fa_verification_failed');
      const long = await confirmNew(api, user.auth, {
        tfa_method: 'totp',
        code: good,
        secret: setup.body.secret,
        label: 'x'.repeat(31),
      });
      expect(long.status).toBe(400);
      expect(long.body.error).toBe('bad_request');
      expect(long.body.msg).toContain('label');
      expect((await status(user)).body.methods).toEqual([]);
    });

    it('SMS: phone_number is required and must be the number the code went to', async () => {
      const user = await createTestUser(api);
      await authorizeByEmail(api, user);
      const phone = testPhone();
      const sent = await sendSms(api, user.auth, { phone_number: phone });
      const code = await readCode(api, phone);
      const missing = await confirmNew(api, user.auth, {
        tfa_method: 'sms',
        code,
        secret: sent.body.secret,
      });
      expect(missing.body.error).toBe('missing_phone_number');
      const mismatch = await confirmNew(api, user.auth, {
        tfa_method: 'sms',
        code,
        secret: sent.body.secret,
        phone_number: testPhone(),
      });
      expect(mismatch.status).toBe(400);
      expect(mismatch.body.error).toBe('phone_number_mismatch');
    });

    it('20 parallel confirm-new of the same type create exactly one method', async () => {
      const user = await createTestUser(api);
      await authorizeByEmail(api, user);
      const setup = await totpSetup(api, user.auth, {});
      const code = totpCode(setup.body.secret);
      const responses = await Promise.all(
        Array.from({ length: 20 }, () =>
          confirmNew(api, user.auth, { tfa_method: 'totp', code, secret: setup.body.secret }),
        ),
      );
      expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of responses.filter((r) => r.status !== 200))
        expect(r.body.error).toBe('duplicate_tfa_method');
      const rows = await sql<unknown[]>(api, `SELECT id FROM tfa_methods WHERE user_id = $1`, [
        user.id,
      ]);
      expect(rows).toHaveLength(1);
      expect((await status(user)).body.backup_codes_remaining).toBe(10);
    });
  });

  describe('PUT /tfa/update/', () => {
    it('changes label and primary flag by tfa_method_id (int) or tfa_method', async () => {
      const user = await createTestUser(api);
      const totp = await enableTotp(api, user);
      const sms = await addSms(api, user, testPhone(), { authorize: false });
      const label = await updateMethod(api, user.auth, {
        tfa_method_id: sms.methodId,
        label: 'Work Phone',
      });
      expect(label.status).toBe(200);
      expect(label.body).toMatchObject({
        success: true,
        method: { id: sms.methodId, label: 'Work Phone', is_primary: false },
      });
      const primary = await updateMethod(api, user.auth, { tfa_method: 'sms', is_primary: true });
      expect(primary.body.method).toMatchObject({ id: sms.methodId, is_primary: true });
      const methods = (await status(user)).body.methods as Array<{
        id: number;
        is_primary: boolean;
      }>;
      expect(methods.find((m) => m.id === totp.methodId)?.is_primary).toBe(false);
    });

    it("email is invalid_tfa_method; another user's method is not_found; bad values are bad_request", async () => {
      const user = await createTestUser(api);
      await enableTotp(api, user);
      const email = await updateMethod(api, user.auth, { tfa_method: 'email', label: 'x' });
      expect(email.body.error).toBe('invalid_tfa_method');
      const other = await createTestUser(api);
      const otherTotp = await enableTotp(api, other);
      const foreign = await updateMethod(api, user.auth, {
        tfa_method_id: otherTotp.methodId,
        label: 'mine',
      });
      expect(foreign.status).toBe(404);
      expect(foreign.body.error).toBe('not_found');
      for (const body of [
        { tfa_method_id: 'abc', label: 'x' },
        { tfa_method_id: 1.5, label: 'x' },
        { tfa_method: 'totp', is_primary: 'yes' },
        { tfa_method: 'totp', label: 'y'.repeat(31) },
      ]) {
        const response = await updateMethod(api, user.auth, body);
        expect(response.status).toBe(400);
        expect(response.body.error).toBe('bad_request');
      }
      await forgetTotpUse(api, otherTotp.methodId);
    });
  });
});
