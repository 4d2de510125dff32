import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '@app/platform';
import { SpendGuardsError } from '../../domain/errors';
import { pendingDelivery, WebhookDelivery } from '../../domain/webhook-delivery';
import { WebhookDeliveryRepository } from '../ports/webhook-delivery.repository.port';
import { OwnedWebhooks } from './owned-webhooks.service';
import { WebhookDispatcher } from './webhook-dispatcher.service';

/** Ids the store makes (uuid): anything else names no delivery. */
const DELIVERY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A new delivery of a delivery's event to the same endpoint: the same event id and body,
 * a new delivery id, its own attempts. The original's row is left as it was.
 */
@Injectable()
export class ResendWebhookDeliveryUseCase {
  constructor(
    private readonly owned: OwnedWebhooks,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly dispatcher: WebhookDispatcher,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(ownerKey: number, id: string, deliveryId: string): Promise<WebhookDelivery> {
    const webhook = await this.owned.find(ownerKey, id);
    const payload = DELIVERY_ID.test(deliveryId)
      ? await this.deliveries.findPayload(webhook.id, deliveryId)
      : null;
    if (!payload) throw new SpendGuardsError('webhook_delivery_not_found', 'no such delivery');
    const now = this.clock.now();
    const added = await this.uow.run(async () => {
      const newId = await this.deliveries.addPending(webhook.id, payload, now);
      this.uow.afterCommit(() => this.dispatcher.dispatch([newId]));
      return newId;
    });
    return pendingDelivery(added, webhook.id, payload, now);
  }
}
