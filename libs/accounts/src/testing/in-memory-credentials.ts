import { CredentialCache } from '../application/ports/credential-cache.port';
import {
  CredentialRepository,
  NewApiKey,
  NewSession,
  TeamRepository,
} from '../application/ports/credential.repository.port';
import { UserRepository } from '../application/ports/user.repository.port';
import { CredentialRecord } from '../domain/credential';
import { InMemoryCredentialCache } from './in-memory-credential-cache';

interface StoredCredential {
  id: number;
  kind: 'api_key' | 'session';
  userId: number;
  teamId: number | null;
  keyHash: string;
  isAdminSession: boolean;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

/**
 * API keys and sessions in memory, held to PostgresCredentialRepository's answers by
 * testing/credential-repository.contract.ts. A credential is found only while its user
 * exists, and carries that user's admin flag.
 */
export class InMemoryCredentialRepository extends CredentialRepository {
  readonly rows: StoredCredential[] = [];
  private sequence = 1_000_000;

  constructor(
    private readonly users: UserRepository,
    private readonly cache: CredentialCache = new InMemoryCredentialCache(),
  ) {
    super();
  }

  /** The sessions issued so far, as they were asked for (oldest first). */
  get sessions(): Array<NewSession & { id: number; revokedAt: Date | null }> {
    return this.rows
      .filter((row) => row.kind === 'session')
      .map((row) => ({
        id: row.id,
        userId: row.userId,
        teamId: row.teamId,
        keyHash: row.keyHash,
        isAdmin: row.isAdminSession,
        expiresAt: row.expiresAt!,
        revokedAt: row.revokedAt,
      }));
  }

  async findByHash(keyHash: string): Promise<CredentialRecord | null> {
    const found = this.rows.find(
      (row) => row.keyHash === keyHash && (row.kind === 'session' || row.revokedAt === null),
    );
    const user = found ? await this.users.findById(found.userId) : null;
    if (!found || !user) return null;
    return {
      id: found.id,
      kind: found.kind,
      userId: found.userId,
      teamId: found.teamId,
      isAdminSession: found.isAdminSession,
      expiresAt: found.expiresAt,
      revokedAt: found.revokedAt,
      isAdminUser: user.isAdmin,
    };
  }

  async createApiKey(key: NewApiKey): Promise<number> {
    this.refuseTaken(key.keyHash);
    return this.add({ ...key, kind: 'api_key', isAdminSession: false, expiresAt: null });
  }

  async upsertApiKey(key: NewApiKey): Promise<number> {
    const known = this.rows.find((row) => row.kind === 'api_key' && row.keyHash === key.keyHash);
    // An explicit key string may just have changed owner or team, wherever it was cached.
    this.cache.allChanged();
    if (!known) return this.createApiKey(key);
    Object.assign(known, { userId: key.userId, teamId: key.teamId, revokedAt: null });
    return known.id;
  }

  async createSession(session: NewSession): Promise<number> {
    this.refuseTaken(session.keyHash);
    return this.add({
      userId: session.userId,
      teamId: session.teamId,
      keyHash: session.keyHash,
      kind: 'session',
      isAdminSession: session.isAdmin,
      expiresAt: session.expiresAt,
    });
  }

  async revokeSession(sessionId: number, at: Date): Promise<boolean> {
    const session = this.rows.find(
      (row) => row.kind === 'session' && row.id === sessionId && row.revokedAt === null,
    );
    if (session) session.revokedAt = at;
    return session !== undefined;
  }

  async revokeSessionsOf(userId: number, at: Date, exceptSessionId?: number): Promise<number> {
    const live = this.rows.filter(
      (row) =>
        row.kind === 'session' &&
        row.userId === userId &&
        row.revokedAt === null &&
        row.expiresAt !== null &&
        row.expiresAt.getTime() > at.getTime() &&
        row.id !== exceptSessionId,
    );
    for (const session of live) session.revokedAt = at;
    return live.length;
  }

  private refuseTaken(keyHash: string): void {
    if (this.rows.some((row) => row.keyHash === keyHash)) {
      throw new Error('duplicate key value violates unique constraint (key_hash)');
    }
  }

  private add(row: Omit<StoredCredential, 'id' | 'revokedAt'>): number {
    const id = this.sequence++;
    this.rows.push({ ...row, id, revokedAt: null });
    return id;
  }
}

/** Teams and their members in memory (TeamRepository). */
export class InMemoryTeamRepository extends TeamRepository {
  readonly names = new Map<number, string>();
  readonly members = new Set<string>();
  private sequence = 1_000_000;

  async upsert(team: { id: number; name: string }): Promise<void> {
    this.names.set(team.id, team.name);
  }

  async create(name: string): Promise<number> {
    const id = this.sequence++;
    this.names.set(id, name);
    return id;
  }

  async addMember(teamId: number, userId: number): Promise<void> {
    this.members.add(`${teamId}:${userId}`);
  }

  async isMember(teamId: number, userId: number): Promise<boolean> {
    return this.members.has(`${teamId}:${userId}`);
  }
}
