import { Injectable } from '@nestjs/common';
import { Clock, TransactionalEntityManager } from '@app/platform';
import {
  CodeSender,
  DeliveryMessage,
  isNoticeMessage,
  SentMessage,
} from '../delivery-providers/code-sender';
import { emailContent, smsBody } from '../delivery-providers/code-message-text';
import { noticeContent } from '../delivery-providers/notice-message-text';

/** What an outbox row holds: a code, or a security notice (`kind`). */
export type OutboxKind = 'code' | 'notice';

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

  async send(message: DeliveryMessage): Promise<SentMessage> {
    const kind: OutboxKind = isNoticeMessage(message) ? 'notice' : 'code';
    const content = isNoticeMessage(message)
      ? noticeContent(this.brand, message.notice)
      : message.channel === 'email'
        ? emailContent(this.brand, message, this.clock.nowMs())
        : { subject: null, text: smsBody(this.brand, message) };
    // A concurrent insert of the same send (a dead worker's, still waiting on a lock) makes
    // this one wait for it and then do nothing: exactly one row either way.
    const rows = await this.tx.rows<{ id: string }>(
      `INSERT INTO tfa_outbox_messages (channel, recipient, subject, body, delivery_id, kind)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (delivery_id) DO NOTHING RETURNING id`,
      [
        message.channel,
        message.destination,
        content.subject,
        content.text,
        message.idempotencyKey,
        kind,
      ],
    );
    if (rows.length > 0) return { providerMessageId: `outbox-${rows[0].id}` };
    const earlier = await this.findSent(message);
    if (!earlier) throw new Error('outbox row of this delivery vanished after a conflict');
    return earlier;
  }

  /** The row an earlier attempt of this send stored, if any. */
  async findSent(message: DeliveryMessage): Promise<SentMessage | null> {
    const rows = await this.tx.rows<{ id: string }>(
      `SELECT id FROM tfa_outbox_messages WHERE delivery_id = $1`,
      [message.idempotencyKey],
    );
    return rows.length > 0 ? { providerMessageId: `outbox-${rows[0].id}` } : null;
  }
}

export interface OutboxMessage {
  id: number;
  kind: OutboxKind;
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

  /** Newest first; `kind` keeps only codes or only notices. */
  async list(to?: string, limit = 50, kind?: OutboxKind): Promise<OutboxMessage[]> {
    const rows = await this.tx.rows<{
      id: string;
      kind: OutboxKind;
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
