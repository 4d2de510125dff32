import { InlineUnitOfWork } from '@app/platform/testing';
import {
  accountsKit,
  InMemoryLoginThrottle,
  RecordingLoginSecondFactor,
  RecordingTrustedDeviceLogin,
} from '../../testing';
import { AccountsError } from '../../domain/errors';
import { LoginChallenge } from '../ports/login-second-factor.port';
import { PasswordLoginUseCase } from './password-login.use-case';

const challenge: LoginChallenge = {
  secret: 'tfa-secret',
  methods: [{ kind: 'legacy', type: 'sms', maskedPhoneNumber: '********0123' }],
};

function setup(options: { secondFactor?: boolean } = {}) {
  const { users, hasher, credentials, issuer } = accountsKit();
  const throttle = new InMemoryLoginThrottle(3);
  const secondFactor = new RecordingLoginSecondFactor(challenge);
  const devices = new RecordingTrustedDeviceLogin();
  const login = new PasswordLoginUseCase(
    users,
    hasher,
    throttle,
    issuer,
    new InlineUnitOfWork(),
    options.secondFactor === false ? undefined : secondFactor,
    devices,
  );
  users.add({ id: 7, email: 'ada@example.com', username: 'ada' }, 'hashed:right');
  users.add({ id: 8, email: 'bob@example.com', tfaStatus: 'enabled' }, 'hashed:right');
  return { users, hasher, throttle, credentials, secondFactor, devices, login };
}

const attempt = (login: string, password: string) => ({
  login,
  password,
  clientAddress: '203.0.113.9',
  origin: { address: '203.0.113.9', userAgent: null },
});

async function errorCode(promise: Promise<unknown>): Promise<string> {
  const error = await promise.catch((e: unknown) => e);
  if (!(error instanceof AccountsError)) throw new Error(`expected an AccountsError: ${error}`);
  return error.code;
}

describe('PasswordLoginUseCase', () => {
  it('without 2FA, the right password by username or email issues a session', async () => {
    const { credentials, login } = setup();
    const byName = await login.execute(attempt('ada', 'right'));
    expect(byName).toMatchObject({ kind: 'session', user: { id: 7 } });
    await login.execute(attempt('ADA@example.com', 'right'));
    expect(credentials.sessions.map((s) => s.userId)).toEqual([7, 7]);
  });

  it('a wrong password and an unknown name fail alike, after a password check', async () => {
    const { hasher, credentials, login } = setup();
    expect(await errorCode(login.execute(attempt('ada', 'wrong')))).toBe('login_failed');
    expect(await errorCode(login.execute(attempt('nobody', 'right')))).toBe('login_failed');
    expect(hasher.verified).toEqual(['hashed:right', null]);
    expect(credentials.sessions).toEqual([]);
  });

  it('replaces a hash made with older parameters after the right password, never after a wrong one', async () => {
    const { users, login } = setup();
    users.add({ id: 9, email: 'cy@example.com', username: 'cy' }, 'legacy:right');
    expect(await errorCode(login.execute(attempt('cy', 'wrong')))).toBe('login_failed');
    expect((await users.findByLogin('cy'))!.passwordHash).toBe('legacy:right');
    expect(await login.execute(attempt('cy', 'right'))).toMatchObject({ kind: 'session' });
    expect((await users.findByLogin('cy'))!.passwordHash).toBe('hashed:right');
    // Today's hash is left alone.
    await login.execute(attempt('ada', 'right'));
    expect((await users.findByLogin('ada'))!.passwordHash).toBe('hashed:right');
  });

  it('counts attempts before the password is checked; a used-up budget checks nothing', async () => {
    const { hasher, throttle, login } = setup();
    for (let i = 0; i < 3; i += 1) await login.execute(attempt('ada', 'wrong')).catch(() => null);
    expect(await errorCode(login.execute(attempt('ada', 'right')))).toBe('login_throttled');
    expect(hasher.verified).toHaveLength(3);
    expect(throttle.attempts.get('user:7')).toBe(3);
    // An unknown name counts under the name itself (here from an address with budget left).
    await login
      .execute({ ...attempt('Nobody', 'x'), clientAddress: '198.51.100.1' })
      .catch(() => null);
    expect(throttle.attempts.get('login:nobody')).toBe(1);
  });

  it('counts per user, per (user, address) and per address', async () => {
    const { throttle, login } = setup();
    await login.execute(attempt('ada', 'wrong')).catch(() => null);
    expect(Object.fromEntries(throttle.attempts)).toEqual({
      'user:7': 1,
      'user-addr:7:203.0.113.9': 1,
      'addr:203.0.113.9': 1,
    });
  });

  it("the right password forgives this address's failures, never a stranger's elsewhere", async () => {
    const { throttle, login } = setup();
    await login
      .execute({ ...attempt('ada', 'wrong'), clientAddress: '198.51.100.66' })
      .catch(() => null);
    await login.execute(attempt('ada', 'wrong')).catch(() => null);
    await login.execute(attempt('ada', 'right'));
    expect(Object.fromEntries(throttle.attempts)).toEqual({
      'user:7': 1,
      'user-addr:7:198.51.100.66': 1,
      'addr:198.51.100.66': 1,
      'addr:203.0.113.9': 1,
    });
  });

  it('with 2FA, hands over to the second factor instead of issuing a session', async () => {
    const { credentials, secondFactor, login } = setup();
    const result = await login.execute(attempt('bob@example.com', 'right'));
    expect(result).toEqual({
      kind: 'second_factor',
      user: expect.objectContaining({ id: 8 }),
      tfaSecret: 'tfa-secret',
      methods: challenge.methods,
    });
    expect(secondFactor.openedFor.map((user) => user.id)).toEqual([8]);
    expect(credentials.sessions).toEqual([]);
  });

  it('with 2FA and no second factor bound, the login is unavailable, never a session', async () => {
    const { credentials, login } = setup({ secondFactor: false });
    expect(await errorCode(login.execute(attempt('bob@example.com', 'right')))).toBe(
      'service_unavailable',
    );
    expect(credentials.sessions).toEqual([]);
  });
});

describe('PasswordLoginUseCase with a trusted device', () => {
  it("the user's trusted device answers like a login without 2FA: a session, no challenge", async () => {
    const { credentials, secondFactor, devices, login } = setup();
    devices.trust('gmd_bob', 8);
    const result = await login.execute({
      ...attempt('bob@example.com', 'right'),
      deviceToken: 'gmd_bob',
    });
    expect(result).toMatchObject({ kind: 'session', user: { id: 8 } });
    expect(credentials.sessions.map((s) => s.userId)).toEqual([8]);
    expect(secondFactor.openedFor).toEqual([]);
    expect(devices.checks).toEqual([
      { userId: 8, token: 'gmd_bob', origin: { address: '203.0.113.9', userAgent: null } },
    ]);
  });

  it("another user's device, or an unknown one, changes nothing: the challenge as usual", async () => {
    const { users, credentials, devices, login } = setup();
    users.add({ id: 9, email: 'eve@example.com', tfaStatus: 'enabled' }, 'hashed:right');
    devices.trust('gmd_eve', 9);
    for (const token of ['gmd_eve', 'gmd_unknown']) {
      const result = await login.execute({
        ...attempt('bob@example.com', 'right'),
        deviceToken: token,
      });
      expect(result.kind).toBe('second_factor');
    }
    expect(credentials.sessions).toEqual([]);
  });

  it('the password and the throttle come first: a device never skips them', async () => {
    const { devices, login } = setup();
    devices.trust('gmd_bob', 8);
    expect(
      await errorCode(
        login.execute({ ...attempt('bob@example.com', 'wrong'), deviceToken: 'gmd_bob' }),
      ),
    ).toBe('login_failed');
    expect(devices.checks).toEqual([]);
  });

  it("a trusted device has its own budget: strangers' failures do not lock its owner out", async () => {
    const { throttle, hasher, devices, credentials, login } = setup();
    devices.trust('gmd_bob', 8);
    for (let i = 0; i < 5; i += 1)
      await login
        .execute({ ...attempt('bob@example.com', 'wrong'), clientAddress: `198.51.100.${i}` })
        .catch(() => null);
    expect(
      await errorCode(
        login.execute({ ...attempt('bob@example.com', 'right'), clientAddress: '198.51.100.9' }),
      ),
    ).toBe('login_throttled');
    const owner = await login.execute({
      ...attempt('bob@example.com', 'right'),
      deviceToken: 'gmd_bob',
    });
    expect(owner).toMatchObject({ kind: 'session', user: { id: 8 } });
    expect(credentials.sessions.map((s) => s.userId)).toEqual([8]);
    // The device's attempts count on the device alone, and the right password clears them.
    await login
      .execute({ ...attempt('bob@example.com', 'wrong'), deviceToken: 'gmd_bob' })
      .catch(() => null);
    expect(throttle.attempts.get('device:1')).toBe(1);
    expect(throttle.attempts.get('user:8')).toBe(3);
    // A cookie of another user (or none) is no device: the user's exhausted budget applies.
    expect(
      await errorCode(
        login.execute({ ...attempt('bob@example.com', 'right'), deviceToken: 'gmd_unknown' }),
      ),
    ).toBe('login_throttled');
    expect(hasher.verified.length).toBe(3 + 1 + 1);
  });

  it('without 2FA a device cookie is not even looked at', async () => {
    const { devices, login } = setup();
    await login.execute({ ...attempt('ada', 'right'), deviceToken: 'gmd_bob' });
    expect(devices.checks).toEqual([]);
  });
});
