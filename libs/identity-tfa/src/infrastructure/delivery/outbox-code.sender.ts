import { Injectable } from '@nestjs/common';
import { Clock, TransactionalEntityManager } from '@app/platform';
import { CodeMessage, CodeSender, SentMessage } from '../delivery-providers/code-sender';
import { emailContent, smsBody } from '../delivery-providers/code-message-text';

/**
 * Development provider for both channels: messages land in PostgreSQL
 * (tfa_outbox_messages) instead of a phone or mailbox, worded as the real providers word
 * them; `manage outbox:list --to ADDRESS` reads them.
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
    const rows = (await this.tx.manager.query(
      `INSERT INTO tfa_outbox_messages (channel, recipient, subject, body)
       VALUES ($1, $2, $3, $4) RETURNING id`,
      [message.channel, message.destination, content.subject, content.text],
    )) as Array<{ id: string }>;
    return { providerMessageId: `outbox-${rows[0].id}` };
  }

  /** A table insert either happened or did not: there is nothing to reconcile. */
  async findSent(): Promise<SentMessage | null> {
    return null;
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
