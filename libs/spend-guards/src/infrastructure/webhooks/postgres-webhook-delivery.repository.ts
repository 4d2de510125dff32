import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import {
  PendingWebhookDelivery,
  RecordedAttempt,
  WebhookDeliveryRepository,
} from '../../application/ports/webhook-delivery.repository.port';
import { WebhookDelivery, WebhookPayload } from '../../domain/webhook-delivery';
import {
  DELIVERY_COLUMNS,
  PayloadRow,
  toPayload,
  toWebhookDelivery,
  WebhookDeliveryRow,
} from './webhook.mapper';

/** The longest error a delivery's row keeps. */
const ERROR_MAX_LENGTH = 200;

@Injectable()
export class PostgresWebhookDeliveryRepository extends WebhookDeliveryRepository {
  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async addForSubscribers(
    ownerKey: number,
    payload: WebhookPayload,
    createdAt: Date,
  ): Promise<string[]> {
    const rows = await this.tx.rows<{ id: string }>(
      `INSERT INTO spend_guard_webhook_deliveries (webhook_id, event_id, event_type, body, created_at)
       SELECT id, $2, $3, $4, $5 FROM spend_guard_webhooks
        WHERE owner_key = $1 AND $3 = ANY (events)
        ORDER BY id
       RETURNING id`,
      [ownerKey, payload.eventId, payload.eventType, payload.body, createdAt],
    );
    return rows.map((row) => row.id);
  }

  async addPending(webhookId: string, payload: WebhookPayload, createdAt: Date): Promise<string> {
    const [row] = await this.tx.rows<{ id: string }>(
      `INSERT INTO spend_guard_webhook_deliveries (webhook_id, event_id, event_type, body, created_at)
       VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [webhookId, payload.eventId, payload.eventType, payload.body, createdAt],
    );
    return row.id;
  }

  async findPayload(webhookId: string, deliveryId: string): Promise<WebhookPayload | null> {
    const [row] = await this.tx.rows<PayloadRow>(
      `SELECT event_id, event_type, body FROM spend_guard_webhook_deliveries
        WHERE id = $1 AND webhook_id = $2`,
      [deliveryId, webhookId],
    );
    return row ? toPayload(row) : null;
  }

  async findPending(deliveryId: string): Promise<PendingWebhookDelivery | null> {
    const [row] = await this.tx.rows<PayloadRow & { id: string; webhook_id: string }>(
      `SELECT id, webhook_id, event_id, event_type, body FROM spend_guard_webhook_deliveries
        WHERE id = $1 AND status = 'pending'`,
      [deliveryId],
    );
    return row ? { id: row.id, webhookId: row.webhook_id, payload: toPayload(row) } : null;
  }

  async recordAttempt(deliveryId: string, attempt: RecordedAttempt): Promise<boolean> {
    const rows = await this.tx.rows(
      `UPDATE spend_guard_webhook_deliveries
          SET attempts = attempts + 1, status = $2, last_status_code = $3, last_error = $4,
              last_attempt_at = $5,
              delivered_at = CASE WHEN $2 = 'succeeded' THEN $5::timestamptz ELSE NULL END
        WHERE id = $1 AND status = 'pending'
       RETURNING id`,
      [
        deliveryId,
        attempt.status,
        attempt.result.statusCode,
        attempt.result.error?.slice(0, ERROR_MAX_LENGTH) ?? null,
        attempt.at,
      ],
    );
    return rows.length > 0;
  }

  async listByWebhook(webhookId: string, limit: number): Promise<WebhookDelivery[]> {
    const rows = await this.tx.rows<WebhookDeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM spend_guard_webhook_deliveries
        WHERE webhook_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
      [webhookId, limit],
    );
    return rows.map(toWebhookDelivery);
  }

  async pendingSince(createdBefore: Date, limit: number): Promise<string[]> {
    const rows = await this.tx.rows<{ id: string }>(
      `SELECT id FROM spend_guard_webhook_deliveries
        WHERE status = 'pending' AND created_at < $1 ORDER BY created_at, id LIMIT $2`,
      [createdBefore, limit],
    );
    return rows.map((row) => row.id);
  }
}
