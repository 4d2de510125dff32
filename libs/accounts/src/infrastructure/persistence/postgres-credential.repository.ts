import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import { CredentialCache } from '../../application/ports/credential-cache.port';
import { CredentialRecord } from '../../domain/credential';
import {
  CredentialRepository,
  NewApiKey,
  NewSession,
} from '../../application/ports/credential.repository.port';

interface CredentialRow {
  kind: 'api_key' | 'session';
  id: number;
  user_id: number;
  team_id: number | null;
  is_admin_session: boolean;
  expires_at: Date | null;
  revoked_at: Date | null;
  is_admin_user: boolean;
}

/** API keys and sessions share one lookup: both are Bearer credentials. */
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
              u.is_admin AS is_admin_user
         FROM (
           SELECT 'api_key' AS kind, id, user_id, team_id, false AS is_admin_session,
                  NULL::timestamptz AS expires_at, NULL::timestamptz AS revoked_at
             FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL
           UNION ALL
           -- Revoked sessions are found too: their holder is told the session ended.
           SELECT 'session', id, user_id, team_id, is_admin, expires_at, revoked_at
             FROM sessions WHERE key_hash = $1
         ) c JOIN users u ON u.id = c.user_id
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
    };
  }

  async createApiKey(key: NewApiKey): Promise<number> {
    const rows = await this.tx.rows<{ id: number }>(
      `INSERT INTO api_keys (user_id, team_id, key_hash, key_prefix) VALUES ($1, $2, $3, $4) RETURNING id`,
      [key.userId, key.teamId, key.keyHash, key.keyPrefix],
    );
    return rows[0].id;
  }

  async upsertApiKey(key: NewApiKey): Promise<number> {
    const rows = await this.tx.rows<{ id: number }>(
      `INSERT INTO api_keys (user_id, team_id, key_hash, key_prefix) VALUES ($1, $2, $3, $4)
       ON CONFLICT (key_hash) DO UPDATE SET user_id = EXCLUDED.user_id, team_id = EXCLUDED.team_id, revoked_at = NULL
       RETURNING id`,
      [key.userId, key.teamId, key.keyHash, key.keyPrefix],
    );
    // An explicit key string may just have changed owner or team, wherever it was cached.
    this.cache.allChanged();
    return rows[0].id;
  }

  async createSession(session: NewSession): Promise<number> {
    const rows = await this.tx.rows<{ id: number }>(
      `INSERT INTO sessions (user_id, team_id, key_hash, is_admin, expires_at) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [session.userId, session.teamId, session.keyHash, session.isAdmin, session.expiresAt],
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
