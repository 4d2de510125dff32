import { Injectable } from '@nestjs/common';
import {
  FULL_PERMISSIONS,
  intersectPermissions,
  PermissionDocumentJson,
  Permissions,
  TransactionalEntityManager,
} from '@app/platform';
import { CredentialCache } from '../../application/ports/credential-cache.port';
import { KeyParamsJson } from '../../domain/api-key';
import { CredentialRecord } from '../../domain/credential';
import {
  CredentialRepository,
  NewApiKey,
  NewSession,
} from '../../application/ports/credential.repository.port';
import { storedAllowlist, storedPermissions } from '../../domain/api-key';
import { rolePermissions } from '../../domain/team';

interface CredentialRow {
  kind: 'api_key' | 'session';
  id: number;
  user_id: number;
  team_id: number | null;
  is_admin_session: boolean;
  expires_at: Date | null;
  revoked_at: Date | null;
  is_admin_user: boolean;
  permissions: PermissionDocumentJson | null;
  key_params: KeyParamsJson | null;
  role_permissions: PermissionDocumentJson | null;
  has_role: boolean;
  is_member: boolean;
  team_tfa_missing: boolean;
}

/** API keys and sessions share one lookup: both are Bearer credentials. */
/** What a team credential may do without a membership to act within: nothing. */
const NO_PERMISSIONS: Permissions = Object.freeze({ full: false, categories: new Map() });

@Injectable()
export class PostgresCredentialRepository extends CredentialRepository {
  constructor(
    private readonly tx: TransactionalEntityManager,
    private readonly cache: CredentialCache,
  ) {
    super();
  }

  async findByHash(keyHash: string): Promise<CredentialRecord | null> {
    const rows = await this.tx.rows<CredentialRow>(
      `SELECT c.kind, c.id, c.user_id, c.team_id, c.is_admin_session, c.expires_at, c.revoked_at,
              c.permissions, c.key_params, u.is_admin AS is_admin_user,
              r.permissions AS role_permissions, (r.id IS NOT NULL) AS has_role,
              (m.user_id IS NOT NULL) AS is_member,
              COALESCE(t.require_tfa AND NOT (u.tfa_enabled OR u.tfa_status <> 'disabled'), false)
                AS team_tfa_missing
         FROM (
           SELECT 'api_key' AS kind, id, user_id, team_id, false AS is_admin_session,
                  expires_at, NULL::timestamptz AS revoked_at, permissions, key_params
             FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL
           UNION ALL
           -- Revoked sessions are found too: their holder is told the session ended.
           SELECT 'session', id, user_id, team_id, is_admin, expires_at, revoked_at,
                  NULL::jsonb, NULL::jsonb
             FROM sessions WHERE key_hash = $1
         ) c JOIN users u ON u.id = c.user_id
         -- In a team, a credential acts within its holder's role (docs/teams.md).
         LEFT JOIN teams t ON t.id = c.team_id
         LEFT JOIN team_members m ON m.team_id = c.team_id AND m.user_id = c.user_id
         LEFT JOIN team_roles r ON r.id = m.role_id
        LIMIT 1`,
      [keyHash],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      kind: row.kind,
      userId: row.user_id,
      teamId: row.team_id,
      isAdminSession: row.is_admin_session,
      expiresAt: row.expires_at,
      revokedAt: row.revoked_at,
      isAdminUser: row.is_admin_user,
      // A session is its user's full credential; a key is what its document says.
      // In a team, what both the credential and the member's role allow.
      // A team credential of someone no longer (or never) a member has no role to act
      // within, so it may do nothing (the team routes refuse it as an invalid key).
      permissions:
        row.team_id !== null && !row.is_member
          ? NO_PERMISSIONS
          : intersectPermissions(
              row.kind === 'session' ? FULL_PERMISSIONS : storedPermissions(row.permissions),
              row.has_role
                ? rolePermissions({ permissions: row.role_permissions })
                : FULL_PERMISSIONS,
            ),
      ipAllowlist: row.kind === 'session' ? null : storedAllowlist(row.key_params),
      ...(row.team_tfa_missing ? { teamTfaMissing: true } : {}),
    };
  }

  async createApiKey(key: NewApiKey): Promise<number> {
    return this.tx.transaction(async () => {
      if (key.main) await this.demoteMainKey(key.userId);
      const rows = await this.tx.rows<{ id: number }>(
        `INSERT INTO api_keys (user_id, team_id, key_hash, key_prefix, is_main)
         VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [key.userId, key.teamId, key.keyHash, key.keyPrefix, key.main ?? false],
      );
      return rows[0].id;
    });
  }

  async upsertApiKey(key: NewApiKey): Promise<number> {
    const id = await this.tx.transaction(async () => {
      if (key.main) await this.demoteMainKey(key.userId, key.keyHash);
      const rows = await this.tx.rows<{ id: number }>(
        `INSERT INTO api_keys (user_id, team_id, key_hash, key_prefix, is_main) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (key_hash) DO UPDATE SET user_id = EXCLUDED.user_id, team_id = EXCLUDED.team_id,
           revoked_at = NULL, is_main = EXCLUDED.is_main
         RETURNING id`,
        [key.userId, key.teamId, key.keyHash, key.keyPrefix, key.main ?? false],
      );
      return rows[0].id;
    });
    // An explicit key string may just have changed owner or team, wherever it was cached.
    this.cache.allChanged();
    return id;
  }

  /** The user's main key (but `keepHash`'s) becomes an ordinary key: a new one takes over. */
  private async demoteMainKey(userId: number, keepHash?: string): Promise<void> {
    await this.tx.rows(
      `UPDATE api_keys SET is_main = false
        WHERE user_id = $1 AND is_main AND ($2::text IS NULL OR key_hash <> $2)`,
      [userId, keepHash ?? null],
    );
  }

  async createSession(session: NewSession): Promise<number> {
    const rows = await this.tx.rows<{ id: number }>(
      `INSERT INTO sessions (user_id, team_id, key_hash, is_admin, expires_at,
                             client_address, user_agent, trusted_device)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [
        session.userId,
        session.teamId,
        session.keyHash,
        session.isAdmin,
        session.expiresAt,
        session.origin?.address ?? null,
        session.origin?.userAgent ?? null,
        session.origin?.trustedDevice ?? false,
      ],
    );
    return rows[0].id;
  }

  async revokeSession(sessionId: number, at: Date): Promise<boolean> {
    const rows = await this.tx.rows<{ id: number }>(
      `UPDATE sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING id`,
      [sessionId, at],
    );
    return rows.length > 0;
  }

  async revokeSessionsOf(userId: number, at: Date, exceptSessionId?: number): Promise<number> {
    const rows = await this.tx.rows<{ id: number }>(
      `UPDATE sessions SET revoked_at = $2
        WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2
          AND ($3::integer IS NULL OR id <> $3)
        RETURNING id`,
      [userId, at, exceptSessionId ?? null],
    );
    return rows.length;
  }
}
