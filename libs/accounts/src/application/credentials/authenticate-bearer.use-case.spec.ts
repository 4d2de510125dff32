import { FULL_PERMISSIONS } from '@app/platform';
import { accountsKit } from '../../testing/accounts-kit';
import { AuthenticateBearerUseCase } from './authenticate-bearer.use-case';

describe('AuthenticateBearerUseCase', () => {
  let kit: ReturnType<typeof accountsKit>;
  let authenticate: AuthenticateBearerUseCase;

  beforeEach(() => {
    kit = accountsKit();
    authenticate = new AuthenticateBearerUseCase(kit.credentials, kit.issuer, kit.clock, kit.cache);
  });

  it('turns an API key into the principal of its user, team and kind', async () => {
    const user = await kit.users.create({ email: 'ada@example.test', isAdmin: true });
    const teamId = await kit.teams.create('engines');
    const key = await kit.issuer.issueApiKey(user.id, teamId);
    const record = (await kit.credentials.findByHash(kit.issuer.fingerprint(key)))!;
    expect(await authenticate.execute(key)).toEqual({
      userId: user.id,
      credentialId: record.id,
      credentialKind: 'api_key',
      teamId,
      isAdminUser: true,
      isAdminSession: false,
      permissions: FULL_PERMISSIONS,
      ipAllowlist: null,
    });
  });

  it('refuses an unknown key', async () => {
    await expect(authenticate.verify('gmk_unknown')).rejects.toMatchObject({
      code: 'auth_invalid_key',
      message: 'Invalid user key',
    });
  });

  it('answers an expired or revoked session as expired', async () => {
    const user = await kit.users.create({ email: 'ada@example.test' });
    const expiring = await kit.issuer.issueSession(user.id);
    const revoked = await kit.issuer.issueSession(user.id);
    expect(await authenticate.execute(revoked.sessionKey)).toMatchObject({
      credentialKind: 'session',
    });
    const record = (await kit.credentials.findByHash(kit.issuer.fingerprint(revoked.sessionKey)))!;
    await kit.credentials.revokeSession(record.id, kit.clock.now());
    kit.clock.set(expiring.expiresAt.getTime());
    for (const key of [expiring.sessionKey, revoked.sessionKey]) {
      await expect(authenticate.execute(key)).rejects.toMatchObject({
        code: 'auth_session_expired',
        message: 'Session expired. Please log in again.',
      });
    }
  });

  it('grants an admin session only to a user who is still an admin', async () => {
    const admin = await kit.users.create({ email: 'admin@example.test', isAdmin: true });
    const plain = await kit.users.create({ email: 'plain@example.test' });
    const adminSession = await kit.issuer.issueSession(admin.id, { isAdmin: true });
    const plainSession = await kit.issuer.issueSession(plain.id, { isAdmin: true });
    expect((await authenticate.execute(adminSession.sessionKey)).isAdminSession).toBe(true);
    expect((await authenticate.execute(plainSession.sessionKey)).isAdminSession).toBe(false);
  });

  it('serves a verified API key from the cache until its user changes', async () => {
    const user = await kit.users.create({ email: 'ada@example.test' });
    const key = await kit.issuer.issueApiKey(user.id);
    const lookups = jest.spyOn(kit.credentials, 'findByHash');
    await authenticate.execute(key);
    await authenticate.execute(key);
    expect(lookups).toHaveBeenCalledTimes(1);
    await kit.users.upsert({ id: user.id, email: 'ada@example.test', isAdmin: true });
    expect((await authenticate.execute(key)).isAdminUser).toBe(true);
    expect(lookups).toHaveBeenCalledTimes(2);
  });

  it('finds a key stored under an older HMAC key fingerprint', async () => {
    const user = await kit.users.create({ email: 'ada@example.test' });
    const key = 'gmk_made-before-rotation';
    const fingerprints = jest
      .spyOn(kit.issuer, 'fingerprints')
      .mockReturnValue(['current-fingerprint', 'older-fingerprint']);
    await kit.credentials.createApiKey({
      userId: user.id,
      teamId: null,
      keyHash: 'older-fingerprint',
      keyPrefix: 'gmk_made',
    });
    expect(await authenticate.execute(key)).toMatchObject({ userId: user.id });
    expect(fingerprints).toHaveBeenCalledWith(key);
  });
});
