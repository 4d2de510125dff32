import { PermissionDocumentJson } from '@app/platform';
import { ApiKeyRepository, NewManagedApiKey } from '../application/ports/api-key.repository.port';
import { CredentialCache } from '../application/ports/credential-cache.port';
import {
  CredentialUse,
  CredentialUseRepository,
} from '../application/ports/credential-use.repository.port';
import { SessionRepository } from '../application/ports/session.repository.port';
import { ApiKey, KeyParamsJson } from '../domain/api-key';
import { SessionRecord } from '../domain/session';
import { storedAllowlist, storedPermissions } from '../domain/api-key';
import {
  CredentialRepository,
  NewApiKey,
  NewSession,
} from '../application/ports/credential.repository.port';
import { TeamRepository } from '../application/ports/team.repository.port';
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
  createdAt: Date;
  lastUsedAt: Date | null;
  // API keys
  keyPrefix: string;
  name: string | null;
  permissions: PermissionDocumentJson | null;
  keyParams: KeyParamsJson | null;
  main: boolean;
  // Sessions
  address: string | null;
  lastAddress: string | null;
  userAgent: string | null;
  trustedDevice: boolean;
}

/** A row as its fields stand after an insert: nothing used, nothing ended. */
const FRESH = {
  revokedAt: null,
  lastUsedAt: null,
  keyPrefix: '',
  name: null,
  permissions: null,
  keyParams: null,
  main: false,
  address: null,
  lastAddress: null,
  userAgent: null,
  trustedDevice: false,
};

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
    readonly cache: CredentialCache = new InMemoryCredentialCache(),
    /** When rows are made (the kit's clock). */
    readonly now: () => Date = () => new Date(),
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
      permissions: storedPermissions(found.kind === 'session' ? null : found.permissions),
      ipAllowlist: found.kind === 'session' ? null : storedAllowlist(found.keyParams),
    };
  }

  async createApiKey(key: NewApiKey): Promise<number> {
    this.refuseTaken(key.keyHash);
    if (key.main) this.demoteMainKey(key.userId);
    return this.add({
      ...FRESH,
      userId: key.userId,
      teamId: key.teamId,
      keyHash: key.keyHash,
      keyPrefix: key.keyPrefix,
      main: key.main ?? false,
      kind: 'api_key',
      isAdminSession: false,
      expiresAt: null,
    });
  }

  async upsertApiKey(key: NewApiKey): Promise<number> {
    const known = this.rows.find((row) => row.kind === 'api_key' && row.keyHash === key.keyHash);
    // An explicit key string may just have changed owner or team, wherever it was cached.
    this.cache.allChanged();
    if (!known) return this.createApiKey(key);
    if (key.main) this.demoteMainKey(key.userId);
    Object.assign(known, {
      userId: key.userId,
      teamId: key.teamId,
      revokedAt: null,
      main: key.main ?? false,
    });
    return known.id;
  }

  /** Inserts a key its owner asked for (InMemoryApiKeyRepository.insert). */
  insertManaged(key: NewManagedApiKey): StoredCredential {
    this.refuseTaken(key.keyHash);
    if (key.main) this.demoteMainKey(key.userId);
    const id = this.add({
      ...FRESH,
      kind: 'api_key',
      userId: key.userId,
      teamId: key.teamId,
      keyHash: key.keyHash,
      keyPrefix: key.keyPrefix,
      name: key.name,
      permissions: key.permissions,
      keyParams: key.keyParams,
      expiresAt: key.expiresAt,
      main: key.main,
      isAdminSession: false,
    });
    return this.rows.find((row) => row.id === id)!;
  }

  private demoteMainKey(userId: number): void {
    for (const row of this.rows)
      if (row.kind === 'api_key' && row.userId === userId && row.main) row.main = false;
  }

  async createSession(session: NewSession): Promise<number> {
    this.refuseTaken(session.keyHash);
    return this.add({
      ...FRESH,
      userId: session.userId,
      teamId: session.teamId,
      keyHash: session.keyHash,
      kind: 'session',
      isAdminSession: session.isAdmin,
      expiresAt: session.expiresAt,
      address: session.origin?.address ?? null,
      userAgent: session.origin?.userAgent ?? null,
      trustedDevice: session.origin?.trustedDevice ?? false,
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

  private add(row: Omit<StoredCredential, 'id' | 'createdAt'>): number {
    const id = this.sequence++;
    this.rows.push({ ...row, id, createdAt: this.now() });
    return id;
  }
}

function toApiKey(row: StoredCredential): ApiKey {
  return {
    id: row.id,
    userId: row.userId,
    teamId: row.teamId,
    name: row.name,
    prefix: row.keyPrefix,
    permissions: storedPermissions(row.permissions),
    keyParams: row.keyParams,
    ipAllowlist: storedAllowlist(row.keyParams),
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    expiresAt: row.expiresAt,
    main: row.main,
  };
}

/** The managed keys, over the rows of an InMemoryCredentialRepository (ApiKeyRepository). */
export class InMemoryApiKeyRepository extends ApiKeyRepository {
  /** Users whose main key a unit of work locked (a fake of the row lock). */
  readonly locked: number[] = [];

  constructor(private readonly credentials: InMemoryCredentialRepository) {
    super();
  }

  async insert(key: NewManagedApiKey): Promise<ApiKey> {
    return toApiKey(this.credentials.insertManaged(key));
  }

  async findLive(userId: number, teamId: number | null, keyId: number): Promise<ApiKey | null> {
    const row = this.live(userId, teamId).find((candidate) => candidate.id === keyId);
    return row ? toApiKey(row) : null;
  }

  async listLive(userId: number, teamId: number | null): Promise<ApiKey[]> {
    return this.live(userId, teamId).map(toApiKey);
  }

  async delete(userId: number, keyId: number, at: Date): Promise<boolean> {
    const row = this.credentials.rows.find(
      (candidate) =>
        candidate.kind === 'api_key' &&
        candidate.id === keyId &&
        candidate.userId === userId &&
        candidate.revokedAt === null,
    );
    if (!row) return false;
    row.revokedAt = at;
    this.credentials.cache.userChanged(userId);
    return true;
  }

  async lockMain(userId: number): Promise<ApiKey | null> {
    this.locked.push(userId);
    const row = this.credentials.rows.find(
      (candidate) =>
        candidate.kind === 'api_key' &&
        candidate.userId === userId &&
        candidate.main &&
        candidate.revokedAt === null,
    );
    return row ? toApiKey(row) : null;
  }

  private live(userId: number, teamId: number | null): StoredCredential[] {
    return this.credentials.rows
      .filter(
        (row) =>
          row.kind === 'api_key' &&
          row.userId === userId &&
          row.teamId === teamId &&
          row.revokedAt === null,
      )
      .sort((a, b) => a.id - b.id);
  }
}

/** The sessions a user sees and ends, over the same rows (SessionRepository). */
export class InMemorySessionRepository extends SessionRepository {
  constructor(private readonly credentials: InMemoryCredentialRepository) {
    super();
  }

  async listLive(userId: number, now: Date): Promise<SessionRecord[]> {
    return this.live(userId, now)
      .sort((a, b) => b.id - a.id)
      .map((row) => ({
        id: row.id,
        createdAt: row.createdAt,
        expiresAt: row.expiresAt!,
        lastUsedAt: row.lastUsedAt,
        address: row.address,
        lastAddress: row.lastAddress,
        userAgent: row.userAgent,
        trustedDevice: row.trustedDevice,
      }));
  }

  async endLive(userId: number, sessionId: number, now: Date): Promise<boolean> {
    const row = this.live(userId, now).find((candidate) => candidate.id === sessionId);
    if (row) row.revokedAt = now;
    return row !== undefined;
  }

  private live(userId: number, now: Date): StoredCredential[] {
    return this.credentials.rows.filter(
      (row) =>
        row.kind === 'session' &&
        row.userId === userId &&
        row.revokedAt === null &&
        row.expiresAt!.getTime() > now.getTime(),
    );
  }
}

/** Last uses written onto the same rows (CredentialUseRepository); `batches` as written. */
export class InMemoryCredentialUseRepository extends CredentialUseRepository {
  readonly batches: CredentialUse[][] = [];
  /** Set to make the next write fail. */
  failNext = false;

  constructor(private readonly credentials: InMemoryCredentialRepository) {
    super();
  }

  async record(uses: readonly CredentialUse[]): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('database unavailable');
    }
    this.batches.push([...uses]);
    for (const use of uses) {
      const row = this.credentials.rows.find(
        (candidate) => candidate.kind === use.kind && candidate.id === use.id,
      );
      if (!row || (row.lastUsedAt && row.lastUsedAt.getTime() > use.at.getTime())) continue;
      row.lastUsedAt = use.at;
      if (row.kind === 'session') row.lastAddress = use.address;
    }
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

  readonly owners = new Set<string>();

  async giveOwnerRole(teamId: number, userId: number): Promise<void> {
    if (this.members.has(`${teamId}:${userId}`)) this.owners.add(`${teamId}:${userId}`);
  }

  async isMember(teamId: number, userId: number): Promise<boolean> {
    return this.members.has(`${teamId}:${userId}`);
  }
}
