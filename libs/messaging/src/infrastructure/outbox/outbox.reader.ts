import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';

export interface OutboxMessage {
  id: number;
  /** What its sender called it (`code`, `notice`). */
  kind: string;
  channel: string;
  to: string;
  subject: string | null;
  body: string;
  created_at: string;
}

/** Reads the development outbox, newest first (operator command and tests). */
@Injectable()
export class OutboxReader {
  constructor(private readonly tx: TransactionalEntityManager) {}

  /** Newest first; `kind` keeps only messages of that kind. */
  async list(to?: string, limit = 50, kind?: string): Promise<OutboxMessage[]> {
    const rows = await this.tx.rows<{
      id: string;
      kind: string;
      channel: string;
      recipient: string;
      subject: string | null;
      body: string;
      created_at: Date;
    }>(
      `SELECT id, kind, channel, recipient, subject, body, created_at FROM tfa_outbox_messages
        WHERE ($1::text IS NULL OR lower(recipient) = lower($1))
          AND ($3::text IS NULL OR kind = $3)
        ORDER BY id DESC LIMIT $2`,
      [to ?? null, limit, kind ?? null],
    );
    return rows.map((row) => ({
      id: Number(row.id),
      kind: row.kind,
      channel: row.channel,
      to: row.recipient,
      subject: row.subject,
      body: row.body,
      created_at: row.created_at.toISOString(),
    }));
  }
}
