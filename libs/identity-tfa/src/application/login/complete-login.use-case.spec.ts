import { ORIGIN, otherThan, rejection, tfaTestKit } from '../../testing/tfa-test-kit';
import { CompleteLoginUseCase } from './complete-login.use-case';

const PHONE = '+14155550123';

async function setup() {
  const kit = tfaTestKit();
  const login = new CompleteLoginUseCase(
    kit.lookup,
    kit.verifier,
    kit.credentialIssuer,
    kit.eventLog,
    kit.deviceTrust,
  );
  const user = kit.addUser(7);
  /** A login challenge (what the password login hands out), with an SMS code sent on it. */
  const smsLogin = async () => {
    const sms = await kit.addSmsMethod(7, PHONE);
    const { secret, challenge } = await kit.challenges.open(7, 'login');
    await kit.challenges.sendCode(challenge, 'sms', PHONE, sms.id);
    return { secret, challenge, code: await kit.lastCode() };
  };
  return { kit, login, user, smsLogin };
}

describe('CompleteLoginUseCase', () => {
  it('logged out, the login secret and its SMS code open a session; the code is spent', async () => {
    const { kit, login, smsLogin } = await setup();
    const { secret, challenge, code } = await smsLogin();
    const completed = await login.execute({
      origin: ORIGIN,
      factor: { code, secret },
      admin: false,
    });
    expect(completed).toMatchObject({ user: { id: 7 }, legacy: false });
    expect(completed.backupCodesRemaining).toBeUndefined();
    expect(kit.credentials.sessions).toEqual([
      expect.objectContaining({ userId: 7, isAdmin: false, expiresAt: completed.expiresAt }),
    ]);
    expect(kit.ledger.spent.has(challenge.id)).toBe(true);
    const again = await rejection(
      login.execute({ origin: ORIGIN, factor: { code, secret }, admin: false }),
    );
    expect(again.code).toBe('no_challenge_found');
    expect(kit.credentials.sessions).toHaveLength(1);
  });

  it('refuses an account without 2FA before any code is compared', async () => {
    const { kit, login } = await setup();
    kit.users.add({ id: 8, tfaStatus: 'disabled' });
    const { secret } = await kit.challenges.open(8, 'login');
    const error = await rejection(
      login.execute({
        origin: ORIGIN,
        factor: { tfaMethod: 'totp', code: '123456', secret },
        admin: false,
      }),
    );
    expect(error.code).toBe('2fa_login_failed');
    expect(kit.credentials.sessions).toEqual([]);
  });

  it('an admin session only for an admin user', async () => {
    const { kit, login } = await setup();
    const { codeAt } = await kit.addTotpMethod(7);
    await login.execute({
      origin: ORIGIN,
      userId: 7,
      factor: { tfaMethod: 'totp', code: codeAt(0) },
      admin: true,
    });
    kit.users.add({ id: 9, isAdmin: true, tfaStatus: 'enabled', tfaEnabled: true });
    const admin = await kit.addTotpMethod(9);
    kit.clock.advance(30_000);
    await login.execute({
      origin: ORIGIN,
      userId: 9,
      factor: { tfaMethod: 'totp', code: admin.codeAt(0) },
      admin: true,
    });
    expect(kit.credentials.sessions.map((s) => [s.userId, s.isAdmin])).toEqual([
      [7, false],
      [9, true],
    ]);
  });

  it('logged out, a TOTP login uses up the login secret with the code', async () => {
    const { kit, login } = await setup();
    const { codeAt } = await kit.addTotpMethod(7);
    const { secret, challenge } = await kit.challenges.open(7, 'login');
    await login.execute({
      origin: ORIGIN,
      factor: { tfaMethod: 'totp', code: codeAt(0), secret },
      admin: false,
    });
    expect(kit.ledger.spent.has(challenge.id)).toBe(true);
    kit.clock.advance(30_000);
    const reuse = await rejection(
      login.execute({
        origin: ORIGIN,
        factor: { tfaMethod: 'totp', code: codeAt(0), secret },
        admin: false,
      }),
    );
    expect(reuse.code).toBe('no_challenge_found');
  });

  it('a backup code reports the codes left, and nothing once none are', async () => {
    const { kit, login } = await setup();
    const codes = await kit.backupCodeIssuer.issue(7);
    const first = await login.execute({
      origin: ORIGIN,
      userId: 7,
      factor: { backupCode: codes[0] },
      admin: false,
    });
    expect(first.backupCodesRemaining).toBe(9);
    for (const code of codes.slice(1, 9))
      await login.execute({
        origin: ORIGIN,
        userId: 7,
        factor: { backupCode: code },
        admin: false,
      });
    const last = await login.execute({
      origin: ORIGIN,
      userId: 7,
      factor: { backupCode: codes[9] },
      admin: false,
    });
    expect(last.backupCodesRemaining).toBeUndefined();
  });

  it('says when the account is a legacy one', async () => {
    const { kit, login } = await setup();
    kit.users.add({ id: 8, tfaStatus: 'legacy', tfaEnabled: true, phoneNumber: PHONE });
    const { secret, challenge } = await kit.challenges.open(8, 'login');
    await kit.challenges.sendCode(challenge, 'sms', PHONE, null);
    const completed = await login.execute({
      origin: ORIGIN,
      factor: { code: await kit.lastCode(), secret },
      admin: false,
    });
    expect(completed.legacy).toBe(true);
  });

  it('a wrong code issues no session and is counted against its channel', async () => {
    const { kit, login, smsLogin } = await setup();
    const { secret, code } = await smsLogin();
    const error = await rejection(
      login.execute({ origin: ORIGIN, factor: { code: otherThan(code), secret }, admin: false }),
    );
    expect(error.code).toBe('2fa_verification_failed');
    expect(error.details).toEqual({ fail_count: 1, locked_until: null });
    expect(await kit.failCount(7, 'sms')).toBe(1);
    expect(kit.credentials.sessions).toEqual([]);
  });

  it('a session that cannot be stored leaves the code unspent', async () => {
    const { kit, login } = await setup();
    const codes = await kit.backupCodeIssuer.issue(7);
    const createSession = kit.credentials.createSession.bind(kit.credentials);
    kit.credentials.createSession = async () => {
      throw new Error('connection lost');
    };
    await expect(
      login.execute({ origin: ORIGIN, userId: 7, factor: { backupCode: codes[0] }, admin: false }),
    ).rejects.toThrow('connection lost');
    kit.credentials.createSession = createSession;
    await expect(
      login.execute({ origin: ORIGIN, userId: 7, factor: { backupCode: codes[0] }, admin: false }),
    ).resolves.toMatchObject({ backupCodesRemaining: 9 });
  });
});

describe('CompleteLoginUseCase: events and trusted devices', () => {
  it('records the login with the factor and the origin, in the transaction of the session', async () => {
    const { kit, login, smsLogin } = await setup();
    const { secret, code } = await smsLogin();
    await login.execute({ origin: ORIGIN, factor: { code, secret }, admin: false });
    expect(kit.events.rows).toEqual([
      expect.objectContaining({
        userId: 7,
        kind: 'login',
        method: 'sms',
        details: { trusted_device: false },
        origin: ORIGIN,
      }),
    ]);
    expect(kit.noticeQueue.jobs).toEqual([]);
  });

  it('a backup code login also records backup_code_used, which is mailed', async () => {
    const { kit, login } = await setup();
    const [code] = await kit.backupCodeIssuer.issue(7);
    await login.execute({ origin: ORIGIN, userId: 7, factor: { backupCode: code }, admin: false });
    expect(kit.eventKinds(7)).toEqual(['login:backup_code', 'backup_code_used:backup_code']);
    expect(kit.events.rows[1].details).toEqual({ remaining: 9 });
    expect(kit.noticeQueue.jobs.map((job) => job.eventId)).toEqual([kit.events.rows[1].id]);
  });

  it('logged out, remember_device trusts the device: its token comes back, once', async () => {
    const { kit, login, smsLogin } = await setup();
    const { secret, code } = await smsLogin();
    const completed = await login.execute({
      origin: ORIGIN,
      factor: { code, secret },
      admin: false,
      rememberDevice: true,
    });
    expect(completed.trustedDevice?.token).toMatch(/^gmd_[0-9A-Za-z]{43}$/);
    expect(await kit.deviceTrust.find(7, completed.trustedDevice!.token)).toEqual(
      completed.trustedDevice!.device,
    );
    expect(kit.eventKinds(7)).toEqual(['login:sms', 'device_trusted']);
  });

  it('with a Bearer token, remember_device is bad_request before any code is compared or spent', async () => {
    const { kit, login } = await setup();
    const [code] = await kit.backupCodeIssuer.issue(7);
    const error = await rejection(
      login.execute({
        origin: ORIGIN,
        userId: 7,
        factor: { backupCode: code },
        admin: false,
        rememberDevice: true,
      }),
    );
    expect(error.code).toBe('bad_request');
    expect(error.message).toMatch(/remember_device is only for the logged-out login/);
    expect(await kit.backupCodes.countUnused(7)).toBe(10);
    expect(kit.devices.rows).toEqual([]);
    expect(kit.events.rows).toEqual([]);
  });

  it('a wrong code records no login and trusts no device', async () => {
    const { kit, login, smsLogin } = await setup();
    const { secret, code } = await smsLogin();
    await rejection(
      login.execute({
        origin: ORIGIN,
        factor: { code: otherThan(code), secret },
        admin: false,
        rememberDevice: true,
      }),
    );
    expect(kit.events.rows).toEqual([]);
    expect(kit.devices.rows).toEqual([]);
  });
});
