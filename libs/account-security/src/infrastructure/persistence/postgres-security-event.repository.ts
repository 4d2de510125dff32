import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import { SecurityEventRepository } from '../../application/ports/security-event.repository.port';
import { NewSecurityEvent, SecurityEvent } from '../../domain/security-event';
import { SECURITY_EVENT_COLUMNS, SecurityEventRow, toSecurityEvent } from './security-event.mapper';

/** The table refuses UPDATE, and DELETE without the prune's flag (see its migration). */
export const PRUNING_FLAG = 'gpumarket.pruning_security_events';

@Injectable()
export class PostgresSecurityEventRepository extends SecurityEventRepository {
  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async append(event: NewSecurityEvent): Promise<SecurityEvent> {
    const rows = await this.tx.rows<SecurityEventRow>(
      `INSERT INTO tfa_security_events
         (user_id, kind, method, details, client_address, user_agent, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       RETURNING ${SECURITY_EVENT_COLUMNS}`,
      [
        event.userId,
        event.kind,
        event.method,
        JSON.stringify(event.details),
        event.origin.address,
        event.origin.userAgent,
        event.occurredAt,
      ],
    );
    return toSecurityEvent(rows[0]);
  }

  async listPage(userId: number, limit: number, beforeId: number | null): Promise<SecurityEvent[]> {
    const rows = await this.tx.rows<SecurityEventRow>(
      `SELECT ${SECURITY_EVENT_COLUMNS} FROM tfa_security_events
        WHERE user_id = $1 AND ($2::bigint IS NULL OR id < $2)
        ORDER BY id DESC LIMIT $3`,
      [userId, beforeId, limit],
    );
    return rows.map(toSecurityEvent);
  }

  async pruneBatch(before: Date, batchSize: number): Promise<number> {
    // SET LOCAL lasts until the transaction ends: outside one it would permit nothing.
    if (!this.tx.inTransaction)
      throw new Error('pruneBatch must run inside a unit of work (its permission is local)');
    await this.tx.rows(`SET LOCAL ${PRUNING_FLAG} = 'on'`);
    const rows = await this.tx.rows(
      `DELETE FROM tfa_security_events
        WHERE id IN (SELECT id FROM tfa_security_events
                      WHERE created_at < $1 ORDER BY created_at, id LIMIT $2)
        RETURNING id`,
      [before, batchSize],
    );
    return rows.length;
  }
}
