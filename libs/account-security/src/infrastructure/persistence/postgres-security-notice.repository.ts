import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import { SecurityNoticeRepository } from '../../application/ports/security-notice.repository.port';
import { SecurityEvent } from '../../domain/security-event';
import { SecurityEventRow, toSecurityEvent } from './security-event.mapper';

@Injectable()
export class PostgresSecurityNoticeRepository extends SecurityNoticeRepository {
  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async addPending(eventId: number, at: Date): Promise<void> {
    await this.tx.rows(
      `INSERT INTO tfa_security_notices (event_id, created_at) VALUES ($1, $2)
       ON CONFLICT (event_id) DO NOTHING`,
      [eventId, at],
    );
  }

  async findPending(eventId: number): Promise<SecurityEvent | null> {
    const rows = await this.tx.rows<SecurityEventRow>(
      `SELECT e.id, e.user_id, e.kind, e.method, e.details, e.client_address, e.user_agent,
              e.created_at
         FROM tfa_security_notices n JOIN tfa_security_events e ON e.id = n.event_id
        WHERE n.event_id = $1 AND n.sent_at IS NULL AND n.abandoned_at IS NULL`,
      [eventId],
    );
    return rows.length > 0 ? toSecurityEvent(rows[0]) : null;
  }

  markSent(eventId: number, at: Date): Promise<boolean> {
    return this.settle(eventId, 'sent_at', at);
  }

  markAbandoned(eventId: number, at: Date): Promise<boolean> {
    return this.settle(eventId, 'abandoned_at', at);
  }

  /** Settles a pending notice once: false when it was already sent or abandoned. */
  private async settle(
    eventId: number,
    column: 'sent_at' | 'abandoned_at',
    at: Date,
  ): Promise<boolean> {
    const rows = await this.tx.rows(
      `UPDATE tfa_security_notices SET ${column} = $2
        WHERE event_id = $1 AND sent_at IS NULL AND abandoned_at IS NULL
        RETURNING event_id`,
      [eventId, at],
    );
    return rows.length > 0;
  }

  async pendingSince(createdBefore: Date, limit: number): Promise<number[]> {
    const rows = await this.tx.rows<{ event_id: string }>(
      `SELECT event_id FROM tfa_security_notices
        WHERE sent_at IS NULL AND abandoned_at IS NULL AND created_at < $1
        ORDER BY created_at, event_id LIMIT $2`,
      [createdBefore, limit],
    );
    return rows.map((row) => Number(row.event_id));
  }
}
