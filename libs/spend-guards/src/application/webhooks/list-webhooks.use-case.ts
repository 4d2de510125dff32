import { Injectable } from '@nestjs/common';
import { Webhook } from '../../domain/webhook';
import { WebhookRepository } from '../ports/webhook.repository.port';

/** The owner's endpoints, oldest first (never a secret). */
@Injectable()
export class ListWebhooksUseCase {
  constructor(private readonly webhooks: WebhookRepository) {}

  execute(ownerKey: number): Promise<Webhook[]> {
    return this.webhooks.listByOwner(ownerKey);
  }
}
