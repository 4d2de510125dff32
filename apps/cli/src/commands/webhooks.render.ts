import { ApiSchema } from '@app/api-client';
import { formatCell, formatTimestamp } from '../output/format';
import { renderKeyValues, renderTable } from '../output/table';

export type Webhook = ApiSchema<'WebhookDto'>;
export type WebhookWithSecret = ApiSchema<'WebhookWithSecretDto'>;
export type WebhookDelivery = ApiSchema<'WebhookDeliveryDto'>;

const SECRET_HINT =
  'Store the signing secret now: it is not shown again (a rotation makes a new one). ' +
  'Verify deliveries as docs/spend-guards.md shows.';

export function renderWebhooks(webhooks: Webhook[]): string {
  if (webhooks.length === 0) return 'No webhooks.\n';
  return renderTable(
    ['id', 'url', 'events', 'description', 'created'].map((header) => ({ header })),
    webhooks.map((webhook) => [
      webhook.id,
      webhook.url,
      webhook.events.join(','),
      formatCell(webhook.description),
      formatTimestamp(webhook.created_at),
    ]),
  );
}

export function renderWebhook(webhook: Webhook): string {
  return renderKeyValues([
    ['id', webhook.id],
    ['url', webhook.url],
    ['events', webhook.events.join(', ')],
    ['description', formatCell(webhook.description)],
    ['created', `${formatTimestamp(webhook.created_at)} UTC`],
  ]);
}

/** Creation and rotation: the endpoint, then its secret on a line of its own. */
export function renderWebhookWithSecret(webhook: WebhookWithSecret, verb: string): string {
  return (
    `Webhook ${webhook.id} ${verb} (${webhook.url}).\n` +
    `Signing secret:\n${webhook.secret}\n${SECRET_HINT}\n`
  );
}

export function renderWebhookDeliveries(deliveries: WebhookDelivery[]): string {
  if (deliveries.length === 0) return 'No deliveries.\n';
  return renderTable(
    ['id', 'event', 'type', 'status', 'attempts', 'last status', 'last error', 'created'].map(
      (header) => ({ header }),
    ),
    deliveries.map((delivery) => [
      delivery.id,
      delivery.event_id,
      delivery.event_type,
      delivery.status,
      String(delivery.attempts),
      formatCell(delivery.last_status_code),
      formatCell(delivery.last_error),
      formatTimestamp(delivery.created_at),
    ]),
  );
}

export function renderDeliveryQueued(delivery: WebhookDelivery, what: string): string {
  return (
    `${what} queued: delivery ${delivery.id} of event ${delivery.event_id} (${delivery.event_type}).\n` +
    'Its outcome shows in `gpumkt webhooks deliveries ID`.\n'
  );
}
