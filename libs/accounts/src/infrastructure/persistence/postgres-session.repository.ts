import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import { SessionRepository } from '../../application/ports/session.repository.port';
import { SessionRecord } from '../../domain/session';

interface SessionRow {
  id: number;
  created_at: Date;
  expires_at: Date;
  last_used_at: Date | null;
  client_address: string | null;
  last_address: string | null;
  user_agent: string | null;
  trusted_device: boolean;
}

@Injectable()
export class PostgresSessionRepository extends SessionRepository {
  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async listLive(userId: number, now: Date): Promise<SessionRecord[]> {
    const rows = await this.tx.rows<SessionRow>(
      `SELECT id, created_at, expires_at, last_used_at, client_address, last_address,
              user_agent, trusted_device
         FROM sessions
        WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2
        ORDER BY id DESC`,
      [userId, now],
    );
    return rows.map((row) => ({
      id: row.id,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      lastUsedAt: row.last_used_at,
      address: row.client_address,
      lastAddress: row.last_address,
      userAgent: row.user_agent,
      trustedDevice: row.trusted_device,
    }));
  }

  async endLive(userId: number, sessionId: number, now: Date): Promise<boolean> {
    const rows = await this.tx.rows<{ id: number }>(
      `UPDATE sessions SET revoked_at = $3
        WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL AND expires_at > $3
        RETURNING id`,
      [sessionId, userId, now],
    );
    return rows.length > 0;
  }
}
