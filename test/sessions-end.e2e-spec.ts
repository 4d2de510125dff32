import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestUser, runManage, startApi, TestApi, TestUser } from '@test/support/api';
import {
  cookieValue,
  listDevices,
  passwordLoginWithDevice,
  passwordTotpUser,
  rememberedLogin,
  storedEvents,
} from '@test/support/account-security';
import { runCli, tempConfigHome } from '@test/support/cli';
import { OwnRedis } from '@test/support/own-redis';
import {
  EnabledTotp,
  addSms,
  backupCodeSession,
  enableTotp,
  forgetTotpUse,
  testPhone,
  totpCode,
} from '@test/support/tfa';
import {
  passwordLogin,
  regenBackupCodes,
  removeMethod,
  tfaStatus,
} from '@test/support/tfa-requests';

/**
 * Sessions end: logout, 2FA changes that log out the user's other devices (in the
 * transaction of the change), the operator's revoke-all, and `gpumkt tfa logout`.
 */
describe('sessions end', () => {
  let api: TestApi;
  // A Redis of its own: this file's delivery worker must not take other files' jobs.
  let redis: OwnRedis;

  beforeAll(async () => {
    redis = await OwnRedis.start();
    api = await startApi({ REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await api.close();
    await redis.stop();
  });

  const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
  const current = (key: string) => api.http().get('/api/v0/users/current/').set(bearer(key));
  const logout = (key: string) => api.http().post('/api/v0/users/logout/').set(bearer(key)).send();
  const ENDED = {
    success: false,
    error: 'auth_error',
    msg: 'Session expired. Please log in again.',
  };

  /** Live or ended, per key, so a failure shows every session at once. */
  const states = async (keys: string[]) =>
    Promise.all(
      keys.map(async (key) => {
        const response = await current(key);
        if (response.status === 200) return 'live';
        expect({ status: response.status, body: response.body }).toEqual({
          status: 404,
          body: ENDED,
        });
        return 'ended';
      }),
    );

  async function passwordSession(user: TestUser, password: string): Promise<string> {
    const response = await passwordLogin(api, { email: user.email, password });
    expect(response.status).toBe(200);
    return response.body.session_key as string;
  }

  describe('POST /users/logout/', () => {
    it('ends the calling session: 200, then 404 auth_error on every later use', async () => {
      const password = 'correct horse battery staple';
      const user = await createTestUser(api, { password });
      const session = await passwordSession(user, password);
      const other = await passwordSession(user, password);
      expect((await current(session)).status).toBe(200);

      const response = await logout(session);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true });
      expect(response.headers['set-cookie']?.[0]).toMatch(
        /^gm_session=;.*Expires=Thu, 01 Jan 1970/,
      );

      expect(await states([session, other])).toEqual(['ended', 'live']);
      const again = await logout(session);
      expect({ status: again.status, body: again.body }).toEqual({ status: 404, body: ENDED });
      expect((await current(user.apiKey)).status).toBe(200);
    });

    it('refuses an API key with 400 bad_request and leaves it valid', async () => {
      const user = await createTestUser(api);
      const response = await logout(user.apiKey);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        success: false,
        error: 'bad_request',
        msg: 'Logout ends a session key; this request was made with an API key.',
      });
      expect((await current(user.apiKey)).status).toBe(200);
    });

    it('needs a credential', async () => {
      const response = await api.http().post('/api/v0/users/logout/').send();
      expect({ status: response.status, body: response.body }).toEqual({
        status: 403,
        body: { success: false, error: 'auth_error', msg: 'This action requires login.' },
      });
    });
  });

  describe('2FA changes end the other sessions, never the caller’s own', () => {
    let user: TestUser;
    let totp: EnabledTotp;
    let codes: string[];
    const freshTotp = async () => {
      await forgetTotpUse(api, totp.methodId);
      return totpCode(totp.secret);
    };

    beforeAll(async () => {
      user = await createTestUser(api);
      totp = await enableTotp(api, user);
      codes = [...totp.backupCodes];
    });

    it('a failed regeneration changes nothing; a verified one ends every other session', async () => {
      const [mine, other1, other2] = [
        await backupCodeSession(api, user, codes.pop()!),
        await backupCodeSession(api, user, codes.pop()!),
        await backupCodeSession(api, user, codes.pop()!),
      ];
      const regen = (code: string) =>
        regenBackupCodes(api, bearer(mine), { tfa_method: 'totp', code });
      const refused = await regen('000000');
      expect(refused.status).toBe(400);
      expect(await states([mine, other1, other2])).toEqual(['live', 'live', 'live']);

      const response = await regen(await freshTotp());
      expect(response.status).toBe(200);
      codes = [...response.body.backup_codes];
      expect(await states([mine, other1, other2])).toEqual(['live', 'ended', 'ended']);
      expect((await current(user.apiKey)).status).toBe(200);
    });

    it('removing a method (2FA stays on) ends every other session', async () => {
      const sms = await addSms(api, user, testPhone());
      const [mine, other] = [
        await backupCodeSession(api, user, codes.pop()!),
        await backupCodeSession(api, user, codes.pop()!),
      ];
      const response = await removeMethod(api, bearer(mine), {
        tfa_method: 'totp',
        code: await freshTotp(),
        target_id: sms.methodId,
      });
      expect(response.status).toBe(200);
      expect(response.body.remaining_methods).toBe(1);
      expect(await states([mine, other])).toEqual(['live', 'ended']);
    });

    it('disabling 2FA with the API key ends every session', async () => {
      const sessions = [
        await backupCodeSession(api, user, codes.pop()!),
        await backupCodeSession(api, user, codes.pop()!),
      ];
      const response = await removeMethod(api, user.auth, {
        tfa_method: 'totp',
        code: await freshTotp(),
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ success: true });
      expect((await tfaStatus(api, user.auth)).body.tfa_enabled).toBe(false);
      expect(await states(sessions)).toEqual(['ended', 'ended']);
    });
  });

  it('manage user:revoke-sessions ID ends all of them and reports how many', async () => {
    const password = 'another long password';
    const user = await createTestUser(api, { password });
    const sessions = [await passwordSession(user, password), await passwordSession(user, password)];
    const result = await runManage(['user:revoke-sessions', String(user.id)]);
    expect(result).toMatchObject({
      code: 0,
      json: { id: user.id, revoked: 2, devices_revoked: 0 },
    });
    expect(await states(sessions)).toEqual(['ended', 'ended']);
    expect((await current(user.apiKey)).status).toBe(200);

    const unknown = await runManage(['user:revoke-sessions', '999999999']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No user 999999999');
  });

  it('manage user:revoke-sessions ID ends the trusted devices too: the password alone no longer signs in', async () => {
    const account = await passwordTotpUser(api, (password) => createTestUser(api, { password }));
    const remembered = await rememberedLogin(api, account);
    const device = cookieValue(remembered, 'gm_device')!;
    const viaDevice = () =>
      passwordLoginWithDevice(api, account.user.email, account.password, device);
    const before = await viaDevice();
    expect(before.body).toMatchObject({ success: true, tfa_required: false });

    const result = await runManage(['user:revoke-sessions', String(account.user.id)]);
    expect(result).toMatchObject({
      code: 0,
      json: { id: account.user.id, revoked: 2, devices_revoked: 1 },
    });
    expect(await states([remembered.headers['x-session-key'], before.body.session_key])).toEqual([
      'ended',
      'ended',
    ]);
    const after = await viaDevice();
    expect(after.body).toMatchObject({ success: true, tfa_required: true });
    expect((await listDevices(api, account.user.auth)).body.devices).toEqual([]);
    const revoked = (await storedEvents(api, account.user.id)).filter(
      (event) => event.kind === 'device_revoked',
    );
    expect(revoked.map((event) => event.details)).toEqual([{ devices: 1, cause: 'operator' }]);
  });

  it('gpumkt tfa logout ends the saved session and removes its file', async () => {
    const password = 'a cli password here';
    const user = await createTestUser(api, { password });
    const session = await passwordSession(user, password);
    const home = tempConfigHome();
    const sessionFile = join(home, 'gpumkt', 'session_key');
    mkdirSync(join(home, 'gpumkt'), { recursive: true, mode: 0o700 });
    writeFileSync(sessionFile, session, { mode: 0o600 });
    writeFileSync(join(home, 'gpumkt', 'api_key'), user.apiKey, { mode: 0o600 });
    const env = { GPUMKT_URL: api.url, XDG_CONFIG_HOME: home };

    // --api-key does not redirect the logout: the saved session is what ends.
    const result = await runCli(['tfa', 'logout', '--api-key', user.apiKey], { env });
    expect(result).toEqual({
      code: 0,
      stdout: `Logged out: the 2FA session has ended and ${sessionFile} was removed.\n`,
      stderr: '',
    });
    expect(existsSync(sessionFile)).toBe(false);
    expect(await states([session])).toEqual(['ended']);

    const nothing = await runCli(['--raw', 'tfa', 'logout'], { env });
    expect(nothing.code).toBe(0);
    expect(JSON.parse(nothing.stdout)).toEqual({ logged_out: false, session_key_file: null });

    // A session ended elsewhere: the stale file goes, exit 0.
    writeFileSync(sessionFile, session, { mode: 0o600 });
    const stale = await runCli(['tfa', 'logout'], { env });
    expect(stale).toEqual({
      code: 0,
      stdout: `The 2FA session had already ended; removed ${sessionFile}.\n`,
      stderr: '',
    });
    expect(existsSync(sessionFile)).toBe(false);
  });
});
