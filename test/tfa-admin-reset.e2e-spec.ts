import { createTestUser, runManage, startApi, TestApi } from '@test/support/api';
import {
  cookieValue,
  eventKinds,
  listDevices,
  noticesSettled,
  noticesTo,
  passwordLoginWithDevice,
  passwordTotpUser,
  rememberedLogin,
  storedEvents,
} from '@test/support/account-security';
import { addSms, backupCodeSession, testPhone } from '@test/support/tfa';
import { passwordLogin, removeMethod, tfaLogin, tfaStatus } from '@test/support/tfa-requests';

/**
 * `manage user:reset-2fa ID --reason TEXT` (docs/identity-tfa.md "Admin reset"): for a
 * user who lost every factor, 2FA off with every method, backup code, session and trusted
 * device gone, the event recorded with its reason and the user told; API keys keep working.
 */
describe('manage user:reset-2fa', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  const current = (key: string) =>
    api
      .http()
      .get('/api/v0/users/current/')
      .set({ Authorization: `Bearer ${key}` });

  it('removes every method, revokes codes, sessions and devices, records the reason and mails the user', async () => {
    const account = await passwordTotpUser(api, (password) => createTestUser(api, { password }));
    const { user, password, totp } = account;
    await addSms(api, user, testPhone());
    const remembered = await rememberedLogin(api, account);
    const deviceToken = cookieValue(remembered, 'gm_device')!;
    const sessions = [
      await backupCodeSession(api, user, totp.backupCodes[0]),
      await backupCodeSession(api, user, totp.backupCodes[1]),
    ];

    const result = await runManage([
      'user:reset-2fa',
      String(user.id),
      '--reason',
      'lost phone; identity checked by support',
    ]);
    expect(result.stderr).toBe('');
    expect(result).toMatchObject({
      code: 0,
      json: {
        id: user.id,
        methods_removed: 2,
        backup_codes_revoked: 8,
        sessions_revoked: 3,
        devices_revoked: 1,
      },
    });

    const status = await tfaStatus(api, user.auth);
    expect(status.body).toMatchObject({
      tfa_enabled: false,
      tfa_status: 'disabled',
      methods: [],
      backup_codes_remaining: 0,
    });
    // Every session ended (the remembered browser's too); the API key works.
    for (const key of [...sessions, cookieValue(remembered, 'gm_session')!]) {
      const response = await current(key);
      expect({ status: response.status, body: response.body }).toEqual({
        status: 404,
        body: { success: false, error: 'auth_error', msg: 'Session expired. Please log in again.' },
      });
    }
    expect((await current(user.apiKey)).status).toBe(200);
    // The backup codes are gone with 2FA; the device is revoked.
    const backup = await tfaLogin(api, user.auth, { backup_code: totp.backupCodes[2] });
    expect(backup.status).toBe(400);
    expect(backup.body.error).toBe('2fa_login_failed');
    expect((await listDevices(api, user.auth)).body.devices).toEqual([]);
    // Without 2FA the password alone logs in; the revoked device records no trusted login.
    const plain = await passwordLoginWithDevice(api, user.email, password, deviceToken);
    expect(plain.body.tfa_required).toBe(false);

    const events = await storedEvents(api, user.id);
    const reset = events.find((event) => event.kind === 'admin_reset')!;
    expect(reset).toMatchObject({
      method: null,
      client_address: null,
      user_agent: 'manage',
      details: {
        reason: 'lost phone; identity checked by support',
        methods_removed: 2,
        backup_codes_revoked: 8,
        sessions_revoked: 3,
        devices_revoked: 1,
      },
    });
    expect((await eventKinds(api, user.id)).slice(-3)).toEqual([
      'device_revoked',
      'admin_reset',
      'session_revoked',
    ]);
    expect(events.filter((e) => e.kind === 'login' && e.details.trusted_device === true)).toEqual(
      [],
    );

    await noticesSettled(api, user.id);
    const notices = await noticesTo(api, user.email);
    const mailed = notices.filter((notice) =>
      notice.subject?.endsWith('two-factor authentication reset by an administrator'),
    );
    expect(mailed).toHaveLength(1);
    expect(mailed[0].body).toContain('From: an operator of the service');
    expect(mailed[0].body).not.toContain('identity checked');
    expect(mailed[0].body).toContain(
      'An administrator reset two-factor authentication on your account: two-factor ' +
        'authentication was turned off, 2 two-factor methods were removed, 8 unused backup ' +
        'codes were revoked, 3 sessions were ended and 1 trusted device was forgotten. Your ' +
        'password alone now signs in until you set two-factor authentication up again.',
    );

    // Run again: only the session the password login above opened ends, and the mail says
    // that alone. A third run changes nothing: recorded for the audit, not mailed.
    const reasonRun = (reason: string) =>
      runManage(['user:reset-2fa', String(user.id), '--reason', reason]);
    expect((await reasonRun('again')).json).toEqual({
      id: user.id,
      methods_removed: 0,
      backup_codes_revoked: 0,
      sessions_revoked: 1,
      devices_revoked: 0,
    });
    expect((await reasonRun('and again')).json).toEqual({
      id: user.id,
      methods_removed: 0,
      backup_codes_revoked: 0,
      sessions_revoked: 0,
      devices_revoked: 0,
    });
    await noticesSettled(api, user.id);
    const resets = (await noticesTo(api, user.email)).filter((notice) =>
      notice.subject?.endsWith('two-factor authentication reset by an administrator'),
    );
    expect(resets).toHaveLength(2);
    expect(resets.map((notice) => notice.body.split('\n')[0])).toContain(
      'An administrator reset two-factor authentication on your account: 1 session was ended.',
    );
    expect((await eventKinds(api, user.id)).slice(-1)).toEqual(['admin_reset']);
  });

  it('on a user without 2FA mails only what changed: nothing, or the sessions it ended', async () => {
    const password = 'no second factor here';
    const user = await createTestUser(api, { password });
    const reset = () => runManage(['user:reset-2fa', String(user.id), '--reason', 'checking']);
    const subject = 'two-factor authentication reset by an administrator';
    const resets = async () =>
      (await noticesTo(api, user.email)).filter((notice) => notice.subject?.endsWith(subject));

    expect((await reset()).code).toBe(0);
    await noticesSettled(api, user.id);
    expect(await resets()).toEqual([]);

    await passwordLogin(api, { email: user.email, password }).expect(200);
    expect((await reset()).json).toMatchObject({ sessions_revoked: 1, methods_removed: 0 });
    await noticesSettled(api, user.id);
    const [notice] = await resets();
    expect(notice.body).toContain(
      'An administrator reset two-factor authentication on your account: 1 session was ended.',
    );
    expect(notice.body.split('\n')[0]).not.toMatch(/removed|turned off|password alone/);
  });

  it('removing the last method with a backup code mails how many codes are truly left: none', async () => {
    const account = await passwordTotpUser(api, (password) => createTestUser(api, { password }));
    const { user, totp } = account;
    const removed = await removeMethod(api, user.auth, {
      backup_code: totp.backupCodes[0],
      target_id: totp.methodId,
    });
    expect(removed.status).toBe(200);
    expect((await tfaStatus(api, user.auth)).body.backup_codes_remaining).toBe(0);
    await noticesSettled(api, user.id);
    const [used] = (await noticesTo(api, user.email)).filter((notice) =>
      notice.subject?.endsWith('a backup code was used'),
    );
    expect(used.body).toContain('(no backup codes are left)');
    expect(used.body).not.toContain('9 codes');
  });

  it('refuses an unknown user, naming the id, with the JSON error and exit 1', async () => {
    const result = await runManage(['user:reset-2fa', '999999999', '--reason', 'x']);
    expect(result.code).toBe(1);
    expect(result.json).toBeNull();
    expect(JSON.parse(result.stderr)).toEqual({ error: 'not_found', msg: 'No user 999999999' });
  });

  it('refuses a missing, blank, overlong or unprintable reason and a malformed id, changing nothing', async () => {
    const account = await passwordTotpUser(api, (password) => createTestUser(api, { password }));
    const id = String(account.user.id);
    const cases: Array<[string[], string]> = [
      [['user:reset-2fa', id], '--reason is required: say why 2FA is reset (1 to 500 characters)'],
      [
        ['user:reset-2fa', id, '--reason', '  '],
        '--reason is required: say why 2FA is reset (1 to 500 characters)',
      ],
      [
        ['user:reset-2fa', id, '--reason', 'x'.repeat(501)],
        '--reason must be at most 500 characters',
      ],
      [['user:reset-2fa', 'abc', '--reason', 'x'], 'id must be a positive integer'],
      [
        ['user:reset-2fa', id, '--reason', 'checked \u001b[31mby phone\u001b]0;title\u0007'],
        '--reason must be one line of printable text (it holds U+001B, a control character)',
      ],
      [
        ['user:reset-2fa', id, '--reason', 'two\nlines'],
        '--reason must be one line of printable text (it holds U+000A, a control character)',
      ],
    ];
    for (const [args, msg] of cases) {
      const result = await runManage(args);
      expect({ args, code: result.code }).toEqual({ args, code: 1 });
      expect(JSON.parse(result.stderr)).toEqual({ error: 'bad_request', msg });
    }
    expect((await tfaStatus(api, account.user.auth)).body.tfa_enabled).toBe(true);
    expect(await storedEvents(api, account.user.id)).not.toContainEqual(
      expect.objectContaining({ kind: 'admin_reset' }),
    );
    const login = await passwordLogin(api, {
      email: account.user.email,
      password: account.password,
    });
    expect(login.body.tfa_required).toBe(true);
  });
});
