import { accountsKit } from '../../testing/accounts-kit';
import { CreateUserUseCase } from './create-user.use-case';

describe('CreateUserUseCase', () => {
  let kit: ReturnType<typeof accountsKit>;
  let createUser: CreateUserUseCase;

  beforeEach(() => {
    kit = accountsKit();
    createUser = new CreateUserUseCase(kit.users, kit.hasher, kit.issuer);
  });

  it('creates an account with a hashed password and its first API key', async () => {
    const { user, apiKey } = await createUser.execute({
      email: 'ada@example.test',
      username: 'ada',
      password: 'correct horse',
      verified: true,
      credit: 5,
    });
    expect(user).toMatchObject({
      email: 'ada@example.test',
      username: 'ada',
      emailVerifiedAt: kit.clock.now(),
      tfaStatus: 'disabled',
      credit: 5,
    });
    expect((await kit.users.findByLogin('ada'))!.passwordHash).toBe('hashed:correct horse');
    expect(apiKey).toMatch(/^gmk_[A-Za-z0-9]{43}$/);
    expect(await kit.credentials.findByHash(kit.issuer.fingerprint(apiKey))).toMatchObject({
      kind: 'api_key',
      userId: user.id,
      teamId: null,
    });
  });

  it('stores no password hash when none is given', async () => {
    await createUser.execute({ email: 'nopass@example.test' });
    expect((await kit.users.findByLogin('nopass@example.test'))!.passwordHash).toBeNull();
  });

  it('upserts on an explicit id with an explicit key (fixtures)', async () => {
    const { user, apiKey } = await createUser.execute({
      id: 8001,
      email: 'fixture@example.test',
      apiKey: 'example-key-8001',
    });
    expect(user.id).toBe(8001);
    expect(apiKey).toBe('example-key-8001');
    expect(kit.cache.changes).toContain(8001);
    expect(await kit.credentials.findByHash(kit.issuer.fingerprint(apiKey))).toMatchObject({
      userId: 8001,
    });
  });

  it('enables 2FA the legacy way with a phone on the user record', async () => {
    const { user } = await createUser.execute({
      email: 'legacy@example.test',
      phone: '+15551230001',
      legacyTfa: true,
    });
    expect(user).toMatchObject({ tfaStatus: 'legacy', tfaEnabled: true });
  });

  it.each([
    [{ email: 'not-an-email' }, 'Invalid email: not-an-email'],
    [{ email: 'a@example.test', phone: '5551230001' }, 'phone must be in E.164 format'],
    [{ email: 'a@example.test', legacyTfa: true }, 'A legacy 2FA account needs a phone number'],
  ])('refuses %j and stores nothing', async (command, message) => {
    await expect(createUser.execute(command)).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringContaining(message),
    });
    expect(kit.users.rows.size).toBe(0);
    expect(kit.credentials.rows).toHaveLength(0);
  });
});
