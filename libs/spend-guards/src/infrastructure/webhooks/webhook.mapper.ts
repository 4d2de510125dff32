import { Webhook, WebhookEventType } from '../../domain/webhook';
import {
  WebhookDelivery,
  WebhookDeliveryStatus,
  WebhookPayload,
} from '../../domain/webhook-delivery';

/** A row of spend_guard_webhooks as the pg driver returns it (without the secret). */
export interface WebhookRow {
  id: string;
  owner_key: number;
  url: string;
  events: string[];
  description: string;
  created_at: Date;
}

export const WEBHOOK_COLUMNS = 'id, owner_key, url, events, description, created_at';

export function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    ownerKey: row.owner_key,
    url: row.url,
    events: row.events as WebhookEventType[],
    description: row.description,
    createdAt: row.created_at,
  };
}

/** A row of spend_guard_webhook_deliveries (without its body). */
export interface WebhookDeliveryRow {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date;
  last_attempt_at: Date | null;
  delivered_at: Date | null;
}

export const DELIVERY_COLUMNS =
  'id, webhook_id, event_id, event_type, status, attempts, last_status_code, last_error, ' +
  'created_at, last_attempt_at, delivered_at';

export function toWebhookDelivery(row: WebhookDeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    eventId: row.event_id,
    eventType: row.event_type as WebhookEventType,
    status: row.status as WebhookDeliveryStatus,
    attempts: row.attempts,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    createdAt: row.created_at,
    lastAttemptAt: row.last_attempt_at,
    deliveredAt: row.delivered_at,
  };
}

export interface PayloadRow {
  event_id: string;
  event_type: string;
  body: string;
}

export function toPayload(row: PayloadRow): WebhookPayload {
  return { eventId: row.event_id, eventType: row.event_type as WebhookEventType, body: row.body };
}
