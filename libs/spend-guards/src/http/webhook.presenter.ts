import { WebhookWithSecret } from '../application/webhooks/create-webhook.use-case';
import { Webhook } from '../domain/webhook';
import { WebhookDelivery } from '../domain/webhook-delivery';
import { WebhookDeliveryDto, WebhookDto, WebhookWithSecretDto } from './webhook.response.dto';

function seconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

export function presentWebhook(webhook: Webhook): WebhookDto {
  return {
    id: webhook.id,
    url: webhook.url,
    events: [...webhook.events],
    description: webhook.description,
    created_at: seconds(webhook.createdAt),
  };
}

export function presentWebhookWithSecret(created: WebhookWithSecret): WebhookWithSecretDto {
  return { ...presentWebhook(created.webhook), secret: created.secret };
}

export function presentWebhookDelivery(delivery: WebhookDelivery): WebhookDeliveryDto {
  return {
    id: delivery.id,
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    last_status_code: delivery.lastStatusCode,
    last_error: delivery.lastError,
    created_at: seconds(delivery.createdAt),
    last_attempt_at: delivery.lastAttemptAt ? seconds(delivery.lastAttemptAt) : null,
    delivered_at: delivery.deliveredAt ? seconds(delivery.deliveredAt) : null,
  };
}
