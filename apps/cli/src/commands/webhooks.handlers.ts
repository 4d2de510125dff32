import { ApiSchema } from '@app/api-client';
import { CommandContext } from '../context';
import {
  renderDeliveryQueued,
  renderWebhook,
  renderWebhookDeliveries,
  renderWebhooks,
  renderWebhookWithSecret,
} from './webhooks.render';

/** `webhooks list`: the owner's endpoints (never a secret). */
export async function listWebhooks(context: CommandContext): Promise<void> {
  const response = await context.api().get('/api/v0/webhooks/');
  context.output(response, () => renderWebhooks(response.webhooks));
}

/** `webhooks create`: the signing secret is printed once. */
export async function createWebhook(
  context: CommandContext,
  url: string,
  options: { events?: string[]; description?: string },
): Promise<void> {
  const response = await context.api().post('/api/v0/webhooks/', {
    body: {
      url,
      ...(options.events
        ? { events: options.events as ApiSchema<'CreateWebhookRequestDto'>['events'] }
        : {}),
      ...(options.description !== undefined ? { description: options.description } : {}),
    },
  });
  context.output(response, () => renderWebhookWithSecret(response.webhook, 'created'));
}

export async function showWebhook(context: CommandContext, id: string): Promise<void> {
  const response = await context.api().get('/api/v0/webhooks/{id}/', { params: { path: { id } } });
  context.output(response, () => renderWebhook(response.webhook));
}

export async function deleteWebhook(context: CommandContext, id: string): Promise<void> {
  const response = await context
    .api()
    .delete('/api/v0/webhooks/{id}/', { params: { path: { id } } });
  context.output(response, () => `Webhook ${id} deleted, with its delivery log.\n`);
}

export async function rotateWebhookSecret(context: CommandContext, id: string): Promise<void> {
  const response = await context
    .api()
    .post('/api/v0/webhooks/{id}/rotate_secret/', { params: { path: { id } } });
  context.output(response, () => renderWebhookWithSecret(response.webhook, 'has a new secret'));
}

export async function testWebhook(context: CommandContext, id: string): Promise<void> {
  const response = await context
    .api()
    .post('/api/v0/webhooks/{id}/test/', { params: { path: { id } } });
  context.output(response, () => renderDeliveryQueued(response.delivery, 'A webhook.test event'));
}

export async function webhookDeliveries(context: CommandContext, id: string): Promise<void> {
  const response = await context
    .api()
    .get('/api/v0/webhooks/{id}/deliveries/', { params: { path: { id } } });
  context.output(response, () => renderWebhookDeliveries(response.deliveries));
}

export async function resendWebhookDelivery(
  context: CommandContext,
  id: string,
  deliveryId: string,
): Promise<void> {
  const response = await context
    .api()
    .post('/api/v0/webhooks/{id}/deliveries/{deliveryId}/resend/', {
      params: { path: { id, deliveryId } },
    });
  context.output(response, () => renderDeliveryQueued(response.delivery, 'A re-send'));
}
