import { TransactionalEntityManager } from '@app/platform';
import { OutgoingMessage } from '../../domain/message';
import { ProviderSender, SentMessage } from '../providers/provider-sender';

/**
 * Development provider for both channels: messages land in PostgreSQL
 * (tfa_outbox_messages, a name kept from when only 2FA codes went out) instead of a phone
 * or mailbox, with the subject and text their sender worded; `manage outbox:list --to
 * ADDRESS` reads them (OutboxReader). Each row carries its send's delivery id (unique), so
 * the provider is idempotent the way a real one should be: a second attempt of a send
 * stores nothing, even when the first one's insert commits after its worker died, and
 * `findSent` sees what any attempt stored.
 */
export class OutboxMessageSender extends ProviderSender {
  readonly name = 'outbox';

  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async send(message: OutgoingMessage): Promise<SentMessage> {
    // A concurrent insert of the same send (a dead worker's, still waiting on a lock) makes
    // this one wait for it and then do nothing: exactly one row either way.
    const rows = await this.tx.rows<{ id: string }>(
      `INSERT INTO tfa_outbox_messages (channel, recipient, subject, body, delivery_id, kind)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (delivery_id) DO NOTHING RETURNING id`,
      [
        message.channel,
        message.destination,
        message.content.subject,
        message.content.text,
        message.idempotencyKey,
        message.kind,
      ],
    );
    if (rows.length > 0) return { providerMessageId: `outbox-${rows[0].id}` };
    const earlier = await this.findSent(message);
    if (!earlier) throw new Error('outbox row of this delivery vanished after a conflict');
    return earlier;
  }

  /** The row an earlier attempt of this send stored, if any. */
  async findSent(message: OutgoingMessage): Promise<SentMessage | null> {
    const rows = await this.tx.rows<{ id: string }>(
      `SELECT id FROM tfa_outbox_messages WHERE delivery_id = $1`,
      [message.idempotencyKey],
    );
    return rows.length > 0 ? { providerMessageId: `outbox-${rows[0].id}` } : null;
  }
}
