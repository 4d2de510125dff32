import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import {
  ApiKeyRepository,
  NewManagedApiKey,
} from '../../application/ports/api-key.repository.port';
import { CredentialCache } from '../../application/ports/credential-cache.port';
import { ApiKey } from '../../domain/api-key';
import { API_KEY_COLUMNS, ApiKeyRow, toApiKey } from './api-key.mapper';

/** The keys their owners manage; the Bearer lookup is PostgresCredentialRepository's. */
@Injectable()
export class PostgresApiKeyRepository extends ApiKeyRepository {
  constructor(
    private readonly tx: TransactionalEntityManager,
    private readonly cache: CredentialCache,
  ) {
    super();
  }

  async insert(key: NewManagedApiKey): Promise<ApiKey> {
    return this.tx.transaction(async () => {
      // A new main key takes over from the previous one (one live main key per user).
      if (key.main)
        await this.tx.rows(`UPDATE api_keys SET is_main = false WHERE user_id = $1 AND is_main`, [
          key.userId,
        ]);
      return this.insertRow(key);
    });
  }

  private async insertRow(key: NewManagedApiKey): Promise<ApiKey> {
    const rows = await this.tx.rows<ApiKeyRow>(
      `INSERT INTO api_keys (user_id, team_id, key_hash, key_prefix, name, permissions,
                             key_params, expires_at, is_main)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       RETURNING ${API_KEY_COLUMNS}`,
      [
        key.userId,
        key.teamId,
        key.keyHash,
        key.keyPrefix,
        key.name,
        key.permissions === null ? null : JSON.stringify(key.permissions),
        key.keyParams === null ? null : JSON.stringify(key.keyParams),
        key.expiresAt,
        key.main,
      ],
    );
    return toApiKey(rows[0]);
  }

  async findLive(userId: number, teamId: number | null, keyId: number): Promise<ApiKey | null> {
    const rows = await this.tx.rows<ApiKeyRow>(
      `SELECT ${API_KEY_COLUMNS} FROM api_keys
        WHERE id = $1 AND user_id = $2 AND team_id IS NOT DISTINCT FROM $3 AND revoked_at IS NULL`,
      [keyId, userId, teamId],
    );
    return rows[0] ? toApiKey(rows[0]) : null;
  }

  async listLive(userId: number, teamId: number | null): Promise<ApiKey[]> {
    const rows = await this.tx.rows<ApiKeyRow>(
      `SELECT ${API_KEY_COLUMNS} FROM api_keys
        WHERE user_id = $1 AND team_id IS NOT DISTINCT FROM $2 AND revoked_at IS NULL
        ORDER BY id`,
      [userId, teamId],
    );
    return rows.map(toApiKey);
  }

  async delete(userId: number, keyId: number, at: Date): Promise<boolean> {
    const rows = await this.tx.rows<{ id: number }>(
      `UPDATE api_keys SET revoked_at = $3
        WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING id`,
      [keyId, userId, at],
    );
    // Forgotten here now, and by every replica once this commits.
    if (rows.length > 0) this.cache.userChanged(userId);
    return rows.length > 0;
  }

  async lockMain(userId: number): Promise<ApiKey | null> {
    await this.tx.rows(`SELECT id FROM users WHERE id = $1 FOR UPDATE`, [userId]);
    const rows = await this.tx.rows<ApiKeyRow>(
      `SELECT ${API_KEY_COLUMNS} FROM api_keys
        WHERE user_id = $1 AND is_main AND revoked_at IS NULL`,
      [userId],
    );
    return rows[0] ? toApiKey(rows[0]) : null;
  }
}
