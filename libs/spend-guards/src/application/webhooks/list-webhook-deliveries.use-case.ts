import { Injectable } from '@nestjs/common';
import { WEBHOOK_DELIVERY_LOG_LIMIT, WebhookDelivery } from '../../domain/webhook-delivery';
import { WebhookDeliveryRepository } from '../ports/webhook-delivery.repository.port';
import { OwnedWebhooks } from './owned-webhooks.service';

/** The delivery log of an endpoint of the owner: its latest deliveries, newest first. */
@Injectable()
export class ListWebhookDeliveriesUseCase {
  constructor(
    private readonly owned: OwnedWebhooks,
    private readonly deliveries: WebhookDeliveryRepository,
  ) {}

  async execute(ownerKey: number, id: string): Promise<WebhookDelivery[]> {
    const webhook = await this.owned.find(ownerKey, id);
    return this.deliveries.listByWebhook(webhook.id, WEBHOOK_DELIVERY_LOG_LIMIT);
  }
}
