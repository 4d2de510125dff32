import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookEventType } from './webhook';

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/**
 * One delivery of one event to one endpoint, and what its attempts did. A re-send is a new
 * delivery of the same event (same event id, same body).
 */
export interface WebhookDelivery {
  readonly id: string;
  readonly webhookId: string;
  readonly eventId: string;
  readonly eventType: WebhookEventType;
  readonly status: WebhookDeliveryStatus;
  readonly attempts: number;
  readonly lastStatusCode: number | null;
  readonly lastError: string | null;
  readonly createdAt: Date;
  readonly lastAttemptAt: Date | null;
  readonly deliveredAt: Date | null;
}

/** What a delivery posts: the event, its body already serialised (sent byte for byte). */
export interface WebhookPayload {
  readonly eventId: string;
  readonly eventType: WebhookEventType;
  readonly body: string;
}

/** The deliveries a log answers at most, newest first. */
export const WEBHOOK_DELIVERY_LOG_LIMIT = 100;

/** The body of every delivery of an event: `{id, type, created_at, data}` (epoch seconds). */
export function webhookBody(event: {
  id: string;
  type: WebhookEventType;
  createdAt: Date;
  data: Record<string, unknown>;
}): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    created_at: Math.floor(event.createdAt.getTime() / 1000),
    data: event.data,
  });
}

/** A `webhook.test` event's id: `evt_` and a random token. */
export function webhookEventId(token: string): string {
  return `evt_${token}`;
}

/** How long a receiver should accept a timestamp for (docs/spend-guards.md "Verifying"). */
export const WEBHOOK_REPLAY_WINDOW_SECONDS = 300;

/** `v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>`. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** The headers of one attempt (the delivery id, the event type, its timestamp and signature). */
export function webhookHeaders(
  deliveryId: string,
  payload: WebhookPayload,
  secret: string,
  timestamp: number,
): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'gpumkt-webhooks/1',
    'Gpumkt-Webhook-Id': deliveryId,
    'Gpumkt-Webhook-Event': payload.eventType,
    'Gpumkt-Webhook-Timestamp': String(timestamp),
    'Gpumkt-Webhook-Signature': webhookSignature(secret, timestamp, payload.body),
  };
}

/**
 * The receiver's check, as docs/spend-guards.md writes it: the signature recomputed from the
 * raw body and compared in constant time, the timestamp within the replay window.
 */
export function verifyWebhookSignature(input: {
  secret: string;
  timestamp: string | undefined;
  signature: string | undefined;
  rawBody: string;
  nowSeconds: number;
  toleranceSeconds?: number;
}): 'valid' | 'bad_signature' | 'stale_timestamp' {
  const timestamp = Number(input.timestamp);
  if (!input.timestamp || !/^\d+$/.test(input.timestamp)) return 'stale_timestamp';
  if (
    Math.abs(input.nowSeconds - timestamp) >
    (input.toleranceSeconds ?? WEBHOOK_REPLAY_WINDOW_SECONDS)
  )
    return 'stale_timestamp';
  const expected = Buffer.from(webhookSignature(input.secret, timestamp, input.rawBody));
  const given = Buffer.from(input.signature ?? '');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'bad_signature';
  return 'valid';
}

/** What one attempt got: the receiver's status, or why there was none (no secret in it). */
export interface WebhookAttemptResult {
  readonly statusCode: number | null;
  readonly error: string | null;
}

export function attemptSucceeded(result: WebhookAttemptResult): boolean {
  return result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
}

/** The short error a delivery log shows for a failed attempt. */
export function attemptError(result: WebhookAttemptResult): string {
  return result.error ?? `HTTP ${result.statusCode}`;
}

/** A delivery just recorded: pending, not yet attempted. */
export function pendingDelivery(
  id: string,
  webhookId: string,
  payload: WebhookPayload,
  createdAt: Date,
): WebhookDelivery {
  return {
    id,
    webhookId,
    eventId: payload.eventId,
    eventType: payload.eventType,
    status: 'pending',
    attempts: 0,
    lastStatusCode: null,
    lastError: null,
    createdAt,
    lastAttemptAt: null,
    deliveredAt: null,
  };
}
