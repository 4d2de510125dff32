import { Injectable } from '@nestjs/common';
import { SpendGuardsError } from '../../domain/errors';
import { isWebhookIdShape, Webhook } from '../../domain/webhook';
import { WebhookRepository } from '../ports/webhook.repository.port';

export const WEBHOOK_NOT_FOUND = 'no such webhook';

/**
 * The owner's endpoint, or the one 404 for an id that is unknown, malformed or another
 * owner's (nothing tells them apart).
 */
@Injectable()
export class OwnedWebhooks {
  constructor(private readonly webhooks: WebhookRepository) {}

  async find(ownerKey: number, id: string): Promise<Webhook> {
    const webhook = isWebhookIdShape(id) ? await this.webhooks.findOwned(ownerKey, id) : null;
    if (!webhook) throw new SpendGuardsError('webhook_not_found', WEBHOOK_NOT_FOUND);
    return webhook;
  }
}
