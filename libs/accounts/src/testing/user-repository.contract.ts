import { UserRepository } from '../application/ports/user.repository.port';
import { InMemoryCredentialCache } from './in-memory-credential-cache';

/** What the contract runs against. */
export interface UserRepositorySubject {
  users: UserRepository;
  /** The cache the repository announces changes to. */
  cache: InMemoryCredentialCache;
  /** Makes emails and usernames of this run unique in a shared database. */
  unique: string;
  /** Explicit ids from firstId + 1 to firstId + 10 belong to this suite. */
  firstId: number;
}

/**
 * One suite, run by a unit spec on InMemoryUserRepository and by an int-spec on
 * PostgresUserRepository, so the fake the use-case tests rely on answers as PostgreSQL
 * does (docs/architecture.md "Where do tests go?").
 */
export function userRepositoryContract(setup: () => Promise<UserRepositorySubject>): void {
  let subject: UserRepositorySubject;
  let users: UserRepository;
  const email = (name: string) => `${name}-${subject.unique}@example.test`;
  const login = (name: string) => `${name}_${subject.unique}`;

  beforeAll(async () => {
    subject = await setup();
    users = subject.users;
  });

  it('creates a user with the defaults and reads it back by id', async () => {
    const created = await users.create({ email: email('ada') });
    expect(created.id).toBeGreaterThanOrEqual(1_000_000);
    expect(created).toEqual({
      id: created.id,
      email: email('ada'),
      username: null,
      fullName: '',
      emailVerifiedAt: null,
      isAdmin: false,
      phoneNumber: null,
      tfaEnabled: false,
      tfaStatus: 'disabled',
      credit: 0,
      balance: 0,
      smsFraudFlaggedAt: null,
      balanceThreshold: 0,
      balanceThresholdEnabled: false,
      createdAt: expect.any(Date),
    });
    expect(await users.findById(created.id)).toEqual(created);
    expect(await users.findById(999_999_999)).toBeNull();
  });

  it('stores every given field; the balance starts at the credit, 2FA follows the status', async () => {
    const created = await users.create({
      email: email('grace'),
      username: login('grace'),
      fullName: 'Grace H',
      passwordHash: 'hash-1',
      emailVerified: true,
      isAdmin: true,
      phoneNumber: '+15551230001',
      tfaStatus: 'legacy',
      credit: 12.5,
    });
    expect(created).toMatchObject({
      username: login('grace'),
      fullName: 'Grace H',
      emailVerifiedAt: expect.any(Date),
      isAdmin: true,
      phoneNumber: '+15551230001',
      tfaEnabled: true,
      tfaStatus: 'legacy',
      credit: 12.5,
      balance: 12.5,
    });
  });

  it('finds a user by email or username without regard to case, with the password hash', async () => {
    const created = await users.create({
      email: email('Linus'),
      username: login('Linus'),
      passwordHash: 'hash-2',
    });
    for (const name of [email('linus'), login('LINUS')]) {
      expect(await users.findByLogin(name)).toEqual({ user: created, passwordHash: 'hash-2' });
    }
    expect(await users.findByLogin(email('nobody'))).toBeNull();
  });

  it('refuses an email or username another user has, whatever its case', async () => {
    await users.create({ email: email('taken'), username: login('taken') });
    const message = (address: string) =>
      `A user with email ${address} or that username already exists`;
    await expect(users.create({ email: email('TAKEN') })).rejects.toMatchObject({
      code: 'bad_request',
      message: message(email('TAKEN')),
    });
    await expect(
      users.create({ email: email('other'), username: login('Taken') }),
    ).rejects.toMatchObject({ code: 'bad_request', message: message(email('other')) });
  });

  it('creates or replaces a user on an explicit id, and announces the change', async () => {
    const id = subject.firstId + 1;
    const first = await users.upsert({ id, email: email('fixture'), credit: 5 });
    expect(first).toMatchObject({ id, email: email('fixture'), credit: 5, isAdmin: false });
    const flagged = new Date(Date.UTC(2026, 0, 1));
    await users.setSmsFraudFlag(id, flagged);
    const second = await users.upsert({ id, email: email('fixture2'), isAdmin: true });
    expect(second).toMatchObject({
      id,
      email: email('fixture2'),
      isAdmin: true,
      credit: 0,
      smsFraudFlaggedAt: flagged,
      createdAt: first.createdAt,
    });
    expect(await users.findById(id)).toEqual(second);
    expect(subject.cache.changes).toContain(id);
    await expect(
      users.upsert({ id: subject.firstId + 2, email: email('FIXTURE2') }),
    ).rejects.toMatchObject({ code: 'bad_request' });
  });

  it('sets the 2FA state and the SMS fraud flag of a user that exists', async () => {
    const { id } = await users.create({ email: email('tfa') });
    await users.setTfaState(id, true, 'enabled');
    expect(await users.findById(id)).toMatchObject({ tfaEnabled: true, tfaStatus: 'enabled' });
    const at = new Date(Date.UTC(2026, 1, 2, 3, 4, 5, 6));
    expect(await users.setSmsFraudFlag(id, at)).toBe(true);
    expect((await users.findById(id))!.smsFraudFlaggedAt).toEqual(at);
    expect(await users.setSmsFraudFlag(id, null)).toBe(true);
    expect((await users.findById(id))!.smsFraudFlaggedAt).toBeNull();
    expect(await users.setSmsFraudFlag(999_999_999, at)).toBe(false);
  });

  it('replaces a password hash only where it is still the one that was checked', async () => {
    const { id } = await users.create({ email: email('rehash'), passwordHash: 'old-hash' });
    await users.replacePasswordHash(id, 'another-hash', 'lost-race');
    expect((await users.findByLogin(email('rehash')))!.passwordHash).toBe('old-hash');
    await users.replacePasswordHash(id, 'old-hash', 'new-hash');
    expect((await users.findByLogin(email('rehash')))!.passwordHash).toBe('new-hash');
  });

  it('changes the low-balance settings given, keeps the others, and keeps them across a fixture upsert', async () => {
    const created = await users.create({ email: email('threshold') });
    const changed = await users.changeSettings(created.id, { balanceThreshold: 12.5 });
    expect(changed).toEqual({ ...created, balanceThreshold: 12.5 });
    const enabled = await users.changeSettings(created.id, { balanceThresholdEnabled: true });
    expect(enabled).toEqual({ ...created, balanceThreshold: 12.5, balanceThresholdEnabled: true });
    expect(await users.findById(created.id)).toEqual(enabled);
    expect(await users.changeSettings(999_999_999, { balanceThreshold: 1 })).toBeNull();
    const replaced = await users.upsert({ id: created.id, email: email('threshold') });
    expect(replaced).toMatchObject({ balanceThreshold: 12.5, balanceThresholdEnabled: true });
  });
}
