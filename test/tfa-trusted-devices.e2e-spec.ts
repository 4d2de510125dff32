import { randomUUID } from 'node:crypto';
import { createTestUser, loadFixtures, startApi, TestApi } from '@test/support/api';
import {
  cookieValue,
  freshTotp,
  listDevices,
  passwordLoginWithDevice,
  passwordTotpUser,
  PasswordTotpUser,
  rememberedLogin,
  revokeDevice,
  setCookie,
  storedEvents,
} from '@test/support/account-security';
import { sql } from '@test/support/tfa';
import { regenBackupCodes, removeMethod, tfaLogin } from '@test/support/tfa-requests';

/**
 * Trusted devices (docs/identity-tfa.md "Trusted devices"): remember_device on a logged-out
 * 2FA login, the gm_device cookie, the password login that it lets skip the second factor,
 * the list and revocation routes, and every way a token stops working.
 */
describe('trusted devices', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  const newUser = () => passwordTotpUser(api, (password) => createTestUser(api, { password }));

  /** A user whose browser is remembered, and that browser's device token. */
  async function remembered(): Promise<PasswordTotpUser & { token: string }> {
    const account = await newUser();
    const response = await rememberedLogin(api, account);
    expect(response.status).toBe(200);
    return { ...account, token: cookieValue(response, 'gm_device')! };
  }

  const expectChallenge = (response: { status: number; body: Record<string, unknown> }) => {
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, tfa_required: true });
    expect(response.body.tfa_secret).toEqual(expect.any(String));
  };

  describe('remember_device', () => {
    it('a logged-out 2FA login sets a second, long-lived cookie: HttpOnly, Secure, SameSite=Strict, for the password login only', async () => {
      const account = await newUser();
      const response = await rememberedLogin(api, account);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ success: true, id: account.user.id });
      expect(response.body.session_key).toBeUndefined();
      const device = setCookie(response, 'gm_device')!;
      expect(device).toMatch(
        /^gm_device=gmd_[0-9A-Za-z]{43}; Max-Age=2592000; Path=\/api\/v0\/users\/login; Expires=[^;]+; HttpOnly; Secure; SameSite=Strict$/,
      );
      expect(setCookie(response, 'gm_session')).toMatch(/^gm_session=gms_/);
      // Neither the body nor the stored row holds the token.
      const token = cookieValue(response, 'gm_device')!;
      expect(JSON.stringify(response.body)).not.toContain(token);
      const rows = await sql(api, `SELECT * FROM tfa_trusted_devices WHERE user_id = $1`, [
        account.user.id,
      ]);
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(token);
    });

    it('without it, no device cookie', async () => {
      const account = await newUser();
      const challenge = await api
        .http()
        .post('/api/v0/users/login/')
        .send({ email: account.user.email, password: account.password });
      const response = await tfaLogin(api, null, {
        tfa_method: 'totp',
        code: await freshTotp(api, account.totp),
        secret: challenge.body.tfa_secret,
      });
      expect(response.status).toBe(200);
      expect(setCookie(response, 'gm_device')).toBeUndefined();
      expect(setCookie(response, 'gm_session')).toBeDefined();
    });

    it('with a Bearer token it is 400 bad_request, and the code is not spent', async () => {
      const account = await newUser();
      const code = await freshTotp(api, account.totp);
      const refused = await tfaLogin(api, account.user.auth, {
        tfa_method: 'totp',
        code,
        remember_device: true,
      });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        success: false,
        error: 'bad_request',
        msg: 'Invalid request: remember_device is only for the logged-out login (a tfa_secret without a Bearer token)',
      });
      expect(setCookie(refused, 'gm_device')).toBeUndefined();
      const same = await tfaLogin(api, account.user.auth, { tfa_method: 'totp', code });
      expect(same.status).toBe(200);
      expect((await listDevices(api, account.user.auth)).body.devices).toEqual([]);
    });

    it('must be a boolean', async () => {
      const response = await tfaLogin(api, null, {
        tfa_method: 'totp',
        code: '123456',
        secret: 'some-secret',
        remember_device: 'yes',
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ success: false, error: 'bad_request' });
      expect(response.body.msg).toContain('remember_device');
    });
  });

  describe('the password login from a trusted device', () => {
    it('answers like a login without 2FA and records a trusted login', async () => {
      const account = await remembered();
      const ua = 'TrustedBrowser/1.0';
      const response = await passwordLoginWithDevice(
        api,
        account.user.email,
        account.password,
        account.token,
        { 'User-Agent': ua },
      );
      expect(response.status).toBe(200);
      expect(Object.keys(response.body).sort()).toEqual(
        ['expires_at', 'session_key', 'success', 'tfa_required', 'user'].sort(),
      );
      expect(response.body).toMatchObject({ success: true, tfa_required: false });
      expect(response.body.user).toMatchObject({ id: account.user.id });
      expect(response.headers['x-session-key']).toBe(response.body.session_key);
      expect(setCookie(response, 'gm_session')).toMatch(/^gm_session=gms_/);
      const current = await api
        .http()
        .get('/api/v0/users/current/')
        .set({ Authorization: `Bearer ${response.body.session_key}` });
      expect(current.status).toBe(200);

      const [login] = (await storedEvents(api, account.user.id)).filter(
        (event) => event.kind === 'login' && event.details.trusted_device === true,
      );
      expect(login).toMatchObject({ method: null, user_agent: ua });
      expect(login.client_address).toMatch(/127\.0\.0\.1$/);
      const [device] = (await listDevices(api, account.user.auth)).body.devices;
      expect(device.last_used).toEqual(expect.any(Number));
      expect(login.details.device_id).toBe(device.id);
    });

    it('the password and the login throttle still come first', async () => {
      const account = await remembered();
      const wrong = await passwordLoginWithDevice(api, account.user.email, 'wrong', account.token);
      expect(wrong.status).toBe(401);
      expect(wrong.body).toMatchObject({ success: false, error: 'login_failed' });
    });

    it("user A's device never skips user B's second factor", async () => {
      const a = await remembered();
      const b = await newUser();
      const response = await passwordLoginWithDevice(api, b.user.email, b.password, a.token);
      expectChallenge(response);
      expect(setCookie(response, 'gm_session')).toBeUndefined();
    });

    it('an unknown, malformed or empty cookie changes nothing', async () => {
      const account = await newUser();
      for (const value of [`gmd_${'A'.repeat(43)}`, 'garbage', ''])
        expectChallenge(
          await passwordLoginWithDevice(api, account.user.email, account.password, value),
        );
    });

    it('a revoked device stops working', async () => {
      const account = await remembered();
      const [device] = (await listDevices(api, account.user.auth)).body.devices;
      const revoked = await revokeDevice(api, account.user.auth, device.id);
      expect(revoked.status).toBe(200);
      expect(revoked.body).toEqual({ success: true, msg: 'Trusted device revoked.' });
      expectChallenge(
        await passwordLoginWithDevice(api, account.user.email, account.password, account.token),
      );
      const [event] = (await storedEvents(api, account.user.id)).filter(
        (e) => e.kind === 'device_revoked',
      );
      expect(event.details).toEqual({ devices: 1, cause: 'user', device_id: device.id });
    });

    it('an expired device stops working', async () => {
      const account = await remembered();
      await sql(
        api,
        `UPDATE tfa_trusted_devices SET expires_at = now() - interval '1 second' WHERE user_id = $1`,
        [account.user.id],
      );
      expectChallenge(
        await passwordLoginWithDevice(api, account.user.email, account.password, account.token),
      );
      expect((await listDevices(api, account.user.auth)).body.devices).toEqual([]);
    });

    it('regenerating backup codes revokes every device', async () => {
      const account = await remembered();
      const regen = await regenBackupCodes(api, account.user.auth, {
        tfa_method: 'totp',
        code: await freshTotp(api, account.totp),
      });
      expect(regen.status).toBe(200);
      expectChallenge(
        await passwordLoginWithDevice(api, account.user.email, account.password, account.token),
      );
    });

    it('disabling 2FA revokes every device (and the password alone logs in anyway)', async () => {
      const account = await remembered();
      const removed = await removeMethod(api, account.user.auth, {
        tfa_method: 'totp',
        code: await freshTotp(api, account.totp),
      });
      expect(removed.status).toBe(200);
      expect((await listDevices(api, account.user.auth)).body.devices).toEqual([]);
      const devices = await sql<Array<{ revoked_at: Date | null }>>(
        api,
        `SELECT revoked_at FROM tfa_trusted_devices WHERE user_id = $1`,
        [account.user.id],
      );
      expect(devices.map((d) => d.revoked_at)).toEqual([expect.any(Date)]);
      const plain = await passwordLoginWithDevice(
        api,
        account.user.email,
        account.password,
        account.token,
      );
      expect(plain.body.tfa_required).toBe(false);
      const trusted = (await storedEvents(api, account.user.id)).filter(
        (event) => event.kind === 'login' && event.details.trusted_device === true,
      );
      expect(trusted).toEqual([]);
    });

    it('a device token is no Bearer credential', async () => {
      const account = await remembered();
      const response = await api
        .http()
        .get('/api/v0/users/current/')
        .set({ Authorization: `Bearer ${account.token}` });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({
        success: false,
        error: 'auth_error',
        msg: 'Invalid user key',
      });
    });
  });

  describe('GET and DELETE /tfa/devices/', () => {
    it('lists the active devices newest first, with their origin and times', async () => {
      const account = await newUser();
      await rememberedLogin(api, account, { 'User-Agent': 'First/1.0' });
      await rememberedLogin(api, account, { 'User-Agent': 'Second/2.0' });
      for (const path of ['/api/v0/tfa/devices/', '/api/v0/tfa/devices']) {
        const response = await api.http().get(path).set(account.user.auth);
        expect(response.status).toBe(200);
        expect(response.body.success).toBe(true);
        expect(response.body.devices.map((d: { user_agent: string }) => d.user_agent)).toEqual([
          'Second/2.0',
          'First/1.0',
        ]);
        const [newest] = response.body.devices;
        expect(Object.keys(newest).sort()).toEqual(
          ['client_address', 'created_at', 'expires_at', 'id', 'last_used', 'user_agent'].sort(),
        );
        expect(newest.expires_at - newest.created_at).toBe(30 * 24 * 3600);
        expect(newest.last_used).toBeNull();
        expect(newest.client_address).toMatch(/127\.0\.0\.1$/);
      }
    });

    it("another user's id, an unknown one and a revoked one are the same 404 not_found", async () => {
      const mine = await remembered();
      const theirs = await remembered();
      const [their] = (await listDevices(api, theirs.user.auth)).body.devices;
      const [own] = (await listDevices(api, mine.user.auth)).body.devices;
      await revokeDevice(api, mine.user.auth, own.id).expect(200);
      for (const id of [their.id, 2_000_000_000, own.id]) {
        const response = await revokeDevice(api, mine.user.auth, id);
        expect(response.status).toBe(404);
        expect(response.body).toEqual({
          success: false,
          error: 'not_found',
          msg: `No trusted device ${id}.`,
        });
      }
      // Theirs still works.
      const theirsLogin = await passwordLoginWithDevice(
        api,
        theirs.user.email,
        theirs.password,
        theirs.token,
      );
      expect(theirsLogin.body.tfa_required).toBe(false);
    });

    it('a malformed id is 400 bad_request; both slash variants are served', async () => {
      const account = await remembered();
      for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
        const response = await revokeDevice(api, account.user.auth, id);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({
          success: false,
          error: 'bad_request',
          msg: 'Invalid request: id must be a positive integer',
        });
      }
      const [device] = (await listDevices(api, account.user.auth)).body.devices;
      const response = await api
        .http()
        .delete(`/api/v0/tfa/devices/${device.id}`)
        .set(account.user.auth);
      expect(response.status).toBe(200);
    });

    it('personal context only, and a credential is required', async () => {
      const account = await newUser();
      const key = `team-key-${randomUUID()}`;
      await loadFixtures(api, {
        teams: [
          {
            id: 4471,
            name: 'devices-team',
            members: [account.user.id],
            api_keys: [{ user_id: account.user.id, key }],
          },
        ],
      });
      const team = { Authorization: `Bearer ${key}` };
      for (const response of [await listDevices(api, team), await revokeDevice(api, team, 1)]) {
        expect(response.status).toBe(403);
        expect(response.body).toMatchObject({ success: false, error: 'team_user_forbidden' });
      }
      const anonymous = await api.http().get('/api/v0/tfa/devices/');
      expect(anonymous.status).toBe(403);
      expect(anonymous.body).toEqual({
        success: false,
        error: 'auth_error',
        msg: 'This action requires login.',
      });
    });
  });
});
