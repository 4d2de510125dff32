import { FULL_PERMISSIONS } from '@app/platform';
import { CredentialRepository } from '../application/ports/credential.repository.port';
import { TeamRepository } from '../application/ports/team.repository.port';
import { InMemoryCredentialCache } from './in-memory-credential-cache';

/** What the contract runs against. */
export interface CredentialRepositorySubject {
  credentials: CredentialRepository;
  teams: TeamRepository;
  /** The cache the repository announces changes to. */
  cache: InMemoryCredentialCache;
  /** A new user of this run, an admin or not. */
  newUser(isAdmin: boolean): Promise<number>;
  /** Makes key fingerprints of this run unique in a shared database. */
  unique: string;
  /** An explicit team id that belongs to this suite. */
  teamId: number;
}

/**
 * One suite, run by a unit spec on the in-memory fakes and by an int-spec on PostgreSQL
 * (PostgresCredentialRepository, PostgresTeamRepository), so the fakes the use-case tests
 * rely on answer as the real repositories do.
 */
export function credentialRepositoryContract(
  setup: () => Promise<CredentialRepositorySubject>,
): void {
  let subject: CredentialRepositorySubject;
  let credentials: CredentialRepository;
  const hash = (name: string) => `fingerprint-${name}-${subject.unique}`;
  const HOUR = 3_600_000;
  const NOW = new Date(Date.UTC(2026, 0, 1, 12));

  beforeAll(async () => {
    subject = await setup();
    credentials = subject.credentials;
  });

  it("finds an API key by its fingerprint, with its owner's admin flag", async () => {
    const admin = await subject.newUser(true);
    const id = await credentials.createApiKey({
      userId: admin,
      teamId: null,
      keyHash: hash('admin-key'),
      keyPrefix: 'gmk_abcd',
    });
    expect(await credentials.findByHash(hash('admin-key'))).toEqual({
      id,
      kind: 'api_key',
      userId: admin,
      teamId: null,
      isAdminSession: false,
      expiresAt: null,
      revokedAt: null,
      isAdminUser: true,
      permissions: FULL_PERMISSIONS,
      ipAllowlist: null,
    });
    expect(await credentials.findByHash(hash('no-such-key'))).toBeNull();
    await expect(
      credentials.createApiKey({
        userId: admin,
        teamId: null,
        keyHash: hash('admin-key'),
        keyPrefix: 'gmk_abcd',
      }),
    ).rejects.toThrow();
  });

  it('gives an explicit key to its latest owner and team, and announces it', async () => {
    const [first, second] = [await subject.newUser(false), await subject.newUser(false)];
    await subject.teams.upsert({ id: subject.teamId, name: 'contract team' });
    const key = { teamId: null, keyHash: hash('explicit'), keyPrefix: 'explicit' };
    const id = await credentials.upsertApiKey({ ...key, userId: first });
    const changes = subject.cache.changes.length;
    expect(await credentials.upsertApiKey({ ...key, userId: second, teamId: subject.teamId })).toBe(
      id,
    );
    expect(subject.cache.changes.slice(changes)).toEqual(['all']);
    expect(await credentials.findByHash(hash('explicit'))).toMatchObject({
      id,
      userId: second,
      teamId: subject.teamId,
      isAdminUser: false,
    });
  });

  it('finds a session, revoked or not; an admin session needs nothing more here', async () => {
    const user = await subject.newUser(false);
    const expiresAt = new Date(NOW.getTime() + HOUR);
    const id = await credentials.createSession({
      userId: user,
      teamId: null,
      keyHash: hash('session'),
      isAdmin: true,
      expiresAt,
    });
    expect(await credentials.findByHash(hash('session'))).toEqual({
      id,
      kind: 'session',
      userId: user,
      teamId: null,
      isAdminSession: true,
      expiresAt,
      revokedAt: null,
      isAdminUser: false,
      permissions: FULL_PERMISSIONS,
      ipAllowlist: null,
    });
    expect(await credentials.revokeSession(id, NOW)).toBe(true);
    expect(await credentials.revokeSession(id, NOW)).toBe(false);
    expect(await credentials.findByHash(hash('session'))).toMatchObject({ id, revokedAt: NOW });
  });

  it("ends a user's live sessions but one, and says how many", async () => {
    const user = await subject.newUser(false);
    const other = await subject.newUser(false);
    const session = (name: string, userId: number, offset: number) =>
      credentials.createSession({
        userId,
        teamId: null,
        keyHash: hash(name),
        isAdmin: false,
        expiresAt: new Date(NOW.getTime() + offset),
      });
    const kept = await session('kept', user, HOUR);
    await session('live-1', user, HOUR);
    await session('live-2', user, 2 * HOUR);
    await session('expired', user, -HOUR);
    await session('someone-else', other, HOUR);
    const ended = await session('ended', user, HOUR);
    await credentials.revokeSession(ended, NOW);

    expect(await credentials.revokeSessionsOf(user, NOW, kept)).toBe(2);
    expect(await credentials.revokeSessionsOf(user, NOW, kept)).toBe(0);
    expect((await credentials.findByHash(hash('live-2')))!.revokedAt).toEqual(NOW);
    expect((await credentials.findByHash(hash('kept')))!.revokedAt).toBeNull();
    expect((await credentials.findByHash(hash('expired')))!.revokedAt).toBeNull();
    expect((await credentials.findByHash(hash('someone-else')))!.revokedAt).toBeNull();
    expect(await credentials.revokeSessionsOf(user, NOW)).toBe(1);
  });

  it('keeps team members, once each', async () => {
    const user = await subject.newUser(false);
    const teamId = await subject.teams.create('contract created team');
    expect(await subject.teams.isMember(teamId, user)).toBe(false);
    await subject.teams.addMember(teamId, user);
    await subject.teams.addMember(teamId, user);
    expect(await subject.teams.isMember(teamId, user)).toBe(true);
    expect(await subject.teams.isMember(subject.teamId, user)).toBe(false);
  });
}
