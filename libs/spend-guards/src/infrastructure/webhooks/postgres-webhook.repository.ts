import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import {
  NewWebhook,
  WebhookRepository,
  WebhookTarget,
} from '../../application/ports/webhook.repository.port';
import { Webhook } from '../../domain/webhook';
import { toWebhook, WEBHOOK_COLUMNS, WebhookRow } from './webhook.mapper';

/** First key of the advisory lock that serialises one owner's endpoint creations. */
const WEBHOOK_OWNER_LOCK_SPACE = 0x7fa0_0601;

@Injectable()
export class PostgresWebhookRepository extends WebhookRepository {
  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async lockOwner(ownerKey: number): Promise<void> {
    if (!this.tx.inTransaction)
      throw new Error('WebhookRepository.lockOwner must run inside a unit of work');
    await this.tx.rows(`SELECT pg_advisory_xact_lock($1, $2)`, [
      WEBHOOK_OWNER_LOCK_SPACE,
      ownerKey,
    ]);
  }

  async countByOwner(ownerKey: number): Promise<number> {
    const [row] = await this.tx.rows<{ count: number }>(
      `SELECT count(*)::int AS count FROM spend_guard_webhooks WHERE owner_key = $1`,
      [ownerKey],
    );
    return row.count;
  }

  async insert(webhook: NewWebhook): Promise<Webhook> {
    const [row] = await this.tx.rows<WebhookRow>(
      `INSERT INTO spend_guard_webhooks
         (id, owner_key, url, events, description, secret_ciphertext, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       RETURNING ${WEBHOOK_COLUMNS}`,
      [
        webhook.id,
        webhook.ownerKey,
        webhook.url,
        webhook.events,
        webhook.description,
        webhook.secretCiphertext,
        webhook.createdAt,
      ],
    );
    return toWebhook(row);
  }

  async findOwned(ownerKey: number, id: string): Promise<Webhook | null> {
    const [row] = await this.tx.rows<WebhookRow>(
      `SELECT ${WEBHOOK_COLUMNS} FROM spend_guard_webhooks WHERE id = $1 AND owner_key = $2`,
      [id, ownerKey],
    );
    return row ? toWebhook(row) : null;
  }

  async listByOwner(ownerKey: number): Promise<Webhook[]> {
    const rows = await this.tx.rows<WebhookRow>(
      `SELECT ${WEBHOOK_COLUMNS} FROM spend_guard_webhooks
        WHERE owner_key = $1 ORDER BY created_at, id`,
      [ownerKey],
    );
    return rows.map(toWebhook);
  }

  async deleteOwned(ownerKey: number, id: string): Promise<boolean> {
    const rows = await this.tx.rows(
      `DELETE FROM spend_guard_webhooks WHERE id = $1 AND owner_key = $2 RETURNING id`,
      [id, ownerKey],
    );
    return rows.length > 0;
  }

  async replaceSecret(ownerKey: number, id: string, secretCiphertext: string): Promise<boolean> {
    const rows = await this.tx.rows(
      `UPDATE spend_guard_webhooks SET secret_ciphertext = $3
        WHERE id = $1 AND owner_key = $2 RETURNING id`,
      [id, ownerKey, secretCiphertext],
    );
    return rows.length > 0;
  }

  async findTarget(id: string): Promise<WebhookTarget | null> {
    const [row] = await this.tx.rows<{ id: string; url: string; secret_ciphertext: string }>(
      `SELECT id, url, secret_ciphertext FROM spend_guard_webhooks WHERE id = $1`,
      [id],
    );
    return row ? { id: row.id, url: row.url, secretCiphertext: row.secret_ciphertext } : null;
  }
}
