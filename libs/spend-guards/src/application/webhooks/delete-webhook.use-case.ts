import { Injectable } from '@nestjs/common';
import { SpendGuardsError } from '../../domain/errors';
import { isWebhookIdShape } from '../../domain/webhook';
import { WebhookRepository } from '../ports/webhook.repository.port';
import { WEBHOOK_NOT_FOUND } from './owned-webhooks.service';

/**
 * Deletes an endpoint of the owner with its delivery log; a delivery still queued finds
 * nothing to post when it runs.
 */
@Injectable()
export class DeleteWebhookUseCase {
  constructor(private readonly webhooks: WebhookRepository) {}

  async execute(ownerKey: number, id: string): Promise<void> {
    const deleted = isWebhookIdShape(id) && (await this.webhooks.deleteOwned(ownerKey, id));
    if (!deleted) throw new SpendGuardsError('webhook_not_found', WEBHOOK_NOT_FOUND);
  }
}
