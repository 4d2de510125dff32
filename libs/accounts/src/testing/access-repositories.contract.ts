import { decideAccess, UnitOfWork } from '@app/platform';
import { ApiKeyRepository, NewManagedApiKey } from '../application/ports/api-key.repository.port';
import { CredentialUseRepository } from '../application/ports/credential-use.repository.port';
import { CredentialRepository } from '../application/ports/credential.repository.port';
import { SessionRepository } from '../application/ports/session.repository.port';
import { InMemoryCredentialCache } from './in-memory-credential-cache';

/** What the contract runs against. */
export interface AccessRepositoriesSubject {
  credentials: CredentialRepository;
  apiKeys: ApiKeyRepository;
  sessions: SessionRepository;
  uses: CredentialUseRepository;
  uow: UnitOfWork;
  /** The cache the repositories announce changes to. */
  cache: InMemoryCredentialCache;
  newUser(): Promise<number>;
  /** Makes key fingerprints of this run unique in a shared database. */
  unique: string;
}

/**
 * One suite for the repositories of self-service access (docs/access.md): managed keys,
 * the session list and the last-use writes, run on the fakes by a unit spec and on
 * PostgreSQL by an int-spec, so the use-case tests' fakes answer as the real ones do.
 */
export function accessRepositoriesContract(setup: () => Promise<AccessRepositoriesSubject>): void {
  let subject: AccessRepositoriesSubject;
  const hash = (name: string) => `fingerprint-${name}-${subject.unique}`;
  const HOUR = 3_600_000;
  const NOW = new Date(Date.UTC(2026, 0, 1, 12));

  beforeAll(async () => {
    subject = await setup();
  });

  const managed = (userId: number, name: string, fields: Partial<NewManagedApiKey> = {}) =>
    subject.apiKeys.insert({
      userId,
      teamId: null,
      keyHash: hash(name),
      keyPrefix: 'gmk_test',
      name,
      permissions: null,
      keyParams: null,
      expiresAt: null,
      main: false,
      ...fields,
    });

  it('stores a scoped key with its name, document, key_params and expiry; the lookup reads them', async () => {
    const user = await subject.newUser();
    const expiresAt = new Date(NOW.getTime() + HOUR);
    const key = await managed(user, 'scoped', {
      permissions: {
        api: {
          billing_read: {},
          misc: { 'api.endptjobs.update': { constraints: { id: { eq: 42 } } } },
        },
      },
      keyParams: { ip_whitelist: ['10.0.0.0/8'], group: 42 },
      expiresAt,
    });
    expect(key).toMatchObject({
      userId: user,
      teamId: null,
      name: 'scoped',
      prefix: 'gmk_test',
      keyParams: { ip_whitelist: ['10.0.0.0/8'], group: 42 },
      lastUsedAt: null,
      expiresAt,
      main: false,
    });
    expect(key.permissions.full).toBe(false);
    expect(key.ipAllowlist!.entries).toEqual(['10.0.0.0/8']);
    const record = (await subject.credentials.findByHash(hash('scoped')))!;
    expect(record).toMatchObject({ id: key.id, kind: 'api_key', expiresAt });
    expect(record.ipAllowlist!.allows('10.1.2.3')).toBe(true);
    const update = (id: string) => ({
      category: 'misc' as const,
      route: 'api.endptjobs.update',
      values: (name: string) => (name === 'id' ? [id] : []),
    });
    expect(decideAccess(record.permissions, update('42')).allowed).toBe(true);
    expect(decideAccess(record.permissions, update('43')).allowed).toBe(false);
    expect(await subject.apiKeys.findLive(user, null, key.id)).toEqual(key);
  });

  it("lists a user's live keys of one context, oldest first; another user's key is never found", async () => {
    const [user, other] = [await subject.newUser(), await subject.newUser()];
    const first = await managed(user, 'list-1');
    const second = await managed(user, 'list-2');
    await managed(other, 'list-other');
    expect((await subject.apiKeys.listLive(user, null)).map((key) => key.id)).toEqual([
      first.id,
      second.id,
    ]);
    expect(await subject.apiKeys.findLive(other, null, first.id)).toBeNull();
  });

  it('deletes a live key once, announces it, and the lookup no longer finds it', async () => {
    const user = await subject.newUser();
    const key = await managed(user, 'doomed');
    const changes = subject.cache.changes.length;
    expect(await subject.apiKeys.delete(user, key.id, NOW)).toBe(true);
    expect(subject.cache.changes.slice(changes)).toEqual([user]);
    expect(await subject.apiKeys.delete(user, key.id, NOW)).toBe(false);
    expect(await subject.credentials.findByHash(hash('doomed'))).toBeNull();
    expect(await subject.apiKeys.findLive(user, null, key.id)).toBeNull();
    expect(await subject.apiKeys.listLive(user, null)).toEqual([]);
  });

  it('keeps one main key per user: a new main key takes over, the old one stays live', async () => {
    const user = await subject.newUser();
    const first = await subject.credentials.createApiKey({
      userId: user,
      teamId: null,
      keyHash: hash('main-1'),
      keyPrefix: 'gmk_main',
      main: true,
    });
    expect((await subject.uow.run(() => subject.apiKeys.lockMain(user)))!.id).toBe(first);
    const second = await managed(user, 'main-2', { main: true });
    const keys = await subject.apiKeys.listLive(user, null);
    expect(keys.map((key) => [key.id, key.main])).toEqual([
      [first, false],
      [second.id, true],
    ]);
    expect((await subject.uow.run(() => subject.apiKeys.lockMain(user)))!.id).toBe(second.id);
  });

  it('lists live sessions newest first with their origin, and ends one of the user only', async () => {
    const [user, other] = [await subject.newUser(), await subject.newUser()];
    const session = (name: string, userId: number, offset: number, trustedDevice = false) =>
      subject.credentials.createSession({
        userId,
        teamId: null,
        keyHash: hash(name),
        isAdmin: false,
        expiresAt: new Date(NOW.getTime() + offset),
        origin: { address: '203.0.113.5', userAgent: `agent ${name}`, trustedDevice },
      });
    const older = await session('older', user, HOUR);
    const newer = await session('newer', user, 2 * HOUR, true);
    await session('expired', user, -HOUR);
    const elsewhere = await session('elsewhere', other, HOUR);
    const listed = await subject.sessions.listLive(user, NOW);
    expect(listed.map((s) => s.id)).toEqual([newer, older]);
    expect(listed[0]).toMatchObject({
      address: '203.0.113.5',
      lastAddress: null,
      userAgent: 'agent newer',
      trustedDevice: true,
      lastUsedAt: null,
      expiresAt: new Date(NOW.getTime() + 2 * HOUR),
    });
    expect(await subject.sessions.endLive(user, elsewhere, NOW)).toBe(false);
    expect(await subject.sessions.endLive(user, older, NOW)).toBe(true);
    expect(await subject.sessions.endLive(user, older, NOW)).toBe(false);
    expect((await subject.sessions.listLive(user, NOW)).map((s) => s.id)).toEqual([newer]);
    expect((await subject.credentials.findByHash(hash('older')))!.revokedAt).toEqual(NOW);
  });

  it('moves last use forward only, with the latest address of a session', async () => {
    const user = await subject.newUser();
    const key = await managed(user, 'used');
    const sessionId = await subject.credentials.createSession({
      userId: user,
      teamId: null,
      keyHash: hash('used-session'),
      isAdmin: false,
      expiresAt: new Date(NOW.getTime() + HOUR),
    });
    const later = new Date(NOW.getTime() + 60_000);
    await subject.uses.record([
      { kind: 'api_key', id: key.id, at: later, address: '198.51.100.1' },
      { kind: 'session', id: sessionId, at: later, address: '198.51.100.2' },
    ]);
    await subject.uses.record([
      { kind: 'api_key', id: key.id, at: NOW, address: null },
      { kind: 'session', id: sessionId, at: NOW, address: '198.51.100.3' },
    ]);
    expect((await subject.apiKeys.findLive(user, null, key.id))!.lastUsedAt).toEqual(later);
    expect((await subject.sessions.listLive(user, NOW))[0]).toMatchObject({
      lastUsedAt: later,
      lastAddress: '198.51.100.2',
    });
  });
}
