import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import {
  CodeDeliveryProvider,
  OutgoingCode,
} from '../../application/ports/code-delivery.provider.port';

/**
 * Development provider: messages land in PostgreSQL (tfa_outbox_messages) instead of a
 * phone or mailbox; `manage outbox:list --to ADDRESS` reads them.
 */
@Injectable()
export class OutboxCodeDeliveryProvider extends CodeDeliveryProvider {
  readonly name = 'outbox';

  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async send(message: OutgoingCode): Promise<{ providerMessageId: string }> {
    const rows = (await this.tx.manager.query(
      `INSERT INTO tfa_outbox_messages (channel, recipient, subject, body)
       VALUES ($1, $2, $3, $4) RETURNING id`,
      [message.channel, message.to, message.subject, message.text],
    )) as Array<{ id: string }>;
    return { providerMessageId: `outbox-${rows[0].id}` };
  }
}

export interface OutboxMessage {
  id: number;
  channel: string;
  to: string;
  subject: string | null;
  body: string;
  created_at: string;
}

/** Reads the outbox, newest first (operator command and tests). */
@Injectable()
export class OutboxReader {
  constructor(private readonly tx: TransactionalEntityManager) {}

  async list(to?: string, limit = 50): Promise<OutboxMessage[]> {
    const rows = (await this.tx.manager.query(
      `SELECT id, channel, recipient, subject, body, created_at FROM tfa_outbox_messages
        WHERE ($1::text IS NULL OR lower(recipient) = lower($1))
        ORDER BY id DESC LIMIT $2`,
      [to ?? null, limit],
    )) as Array<{
      id: string;
      channel: string;
      recipient: string;
      subject: string | null;
      body: string;
      created_at: Date;
    }>;
    return rows.map((row) => ({
      id: Number(row.id),
      channel: row.channel,
      to: row.recipient,
      subject: row.subject,
      body: row.body,
      created_at: row.created_at.toISOString(),
    }));
  }
}
