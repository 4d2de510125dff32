import { Injectable } from '@nestjs/common';
import { Clock, RandomSource, UnitOfWork } from '@app/platform';
import {
  pendingDelivery,
  webhookBody,
  WebhookDelivery,
  webhookEventId,
} from '../../domain/webhook-delivery';
import { WebhookDeliveryRepository } from '../ports/webhook-delivery.repository.port';
import { OwnedWebhooks } from './owned-webhooks.service';
import { WebhookDispatcher } from './webhook-dispatcher.service';

/**
 * A `webhook.test` event to one endpoint (whatever it subscribes to), delivered, signed and
 * retried as any other: a way to check a receiver's verification.
 */
@Injectable()
export class SendTestEventUseCase {
  constructor(
    private readonly owned: OwnedWebhooks,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly dispatcher: WebhookDispatcher,
    private readonly random: RandomSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(ownerKey: number, id: string): Promise<WebhookDelivery> {
    const webhook = await this.owned.find(ownerKey, id);
    const now = this.clock.now();
    const eventId = webhookEventId(this.random.token(128));
    const payload = {
      eventId,
      eventType: 'webhook.test' as const,
      body: webhookBody({
        id: eventId,
        type: 'webhook.test',
        createdAt: now,
        data: { webhook_id: webhook.id },
      }),
    };
    const deliveryId = await this.uow.run(async () => {
      const added = await this.deliveries.addPending(webhook.id, payload, now);
      this.uow.afterCommit(() => this.dispatcher.dispatch([added]));
      return added;
    });
    return pendingDelivery(deliveryId, webhook.id, payload, now);
  }
}
