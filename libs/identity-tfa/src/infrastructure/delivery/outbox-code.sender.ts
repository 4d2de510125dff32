import { Injectable } from '@nestjs/common';
import { Clock, TransactionalEntityManager } from '@app/platform';
import { CodeMessage, CodeSender, SentMessage } from '../delivery-providers/code-sender';
import { emailContent, smsBody } from '../delivery-providers/code-message-text';

/**
 * Development provider for both channels: messages land in PostgreSQL
 * (tfa_outbox_messages) instead of a phone or mailbox, worded as the real providers word
 * them; `manage outbox:list --to ADDRESS` reads them. Each row carries its send's delivery
 * id (unique), so the provider is idempotent the way a real one should be: a second
 * attempt of a send stores nothing, even when the first one's insert commits after its
 * worker died, and `findSent` sees what any attempt stored.
 */
export class OutboxCodeSender extends CodeSender {
  readonly name = 'outbox';

  constructor(
    private readonly tx: TransactionalEntityManager,
    private readonly clock: Clock,
    private readonly brand: string,
  ) {
    super();
  }

  async send(message: CodeMessage): Promise<SentMessage> {
    const content =
      message.channel === 'email'
        ? emailContent(this.brand, message, this.clock.nowMs())
        : { subject: null, text: smsBody(this.brand, message) };
    // A concurrent insert of the same send (a dead worker's, still waiting on a lock) makes
    // this one wait for it and then do nothing: exactly one row either way.
    const rows = await this.tx.rows<{ id: string }>(
      `INSERT INTO tfa_outbox_messages (channel, recipient, subject, body, delivery_id)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (delivery_id) DO NOTHING RETURNING id`,
      [message.channel, message.destination, content.subject, content.text, message.idempotencyKey],
    );
    if (rows.length > 0) return { providerMessageId: `outbox-${rows[0].id}` };
    const earlier = await this.findSent(message);
    if (!earlier) throw new Error('outbox row of this delivery vanished after a conflict');
    return earlier;
  }

  /** The row an earlier attempt of this send stored, if any. */
  async findSent(message: CodeMessage): Promise<SentMessage | null> {
    const rows = await this.tx.rows<{ id: string }>(
      `SELECT id FROM tfa_outbox_messages WHERE delivery_id = $1`,
      [message.idempotencyKey],
    );
    return rows.length > 0 ? { providerMessageId: `outbox-${rows[0].id}` } : null;
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
    const rows = await this.tx.rows<{
      id: string;
      channel: string;
      recipient: string;
      subject: string | null;
      body: string;
      created_at: Date;
    }>(
      `SELECT id, channel, recipient, subject, body, created_at FROM tfa_outbox_messages
        WHERE ($1::text IS NULL OR lower(recipient) = lower($1))
        ORDER BY id DESC LIMIT $2`,
      [to ?? null, limit],
    );
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
