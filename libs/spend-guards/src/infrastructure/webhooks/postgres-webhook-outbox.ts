import { Injectable } from '@nestjs/common';
import { Clock } from '@app/platform';
import { WebhookEvent, WebhookOutbox } from '../../application/ports/webhook-outbox.port';
import { WebhookDeliveryRepository } from '../../application/ports/webhook-delivery.repository.port';
import { WebhookDispatcher } from '../../application/webhooks/webhook-dispatcher.service';
import { webhookBody } from '../../domain/webhook-delivery';

/**
 * `record`: one pending delivery per endpoint of the owner subscribed to the event's type,
 * in one statement of the caller's transaction, the event's body stored with each.
 * `dispatch`: their first attempts queued (after the commit; a failure to queue is left to
 * the worker's sweep). Nothing here waits on a receiver.
 */
@Injectable()
export class PostgresWebhookOutbox extends WebhookOutbox {
  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly dispatcher: WebhookDispatcher,
    private readonly clock: Clock,
  ) {
    super();
  }

  record(ownerKey: number, event: WebhookEvent): Promise<string[]> {
    return this.deliveries.addForSubscribers(
      ownerKey,
      { eventId: event.id, eventType: event.type, body: webhookBody(event) },
      this.clock.now(),
    );
  }

  dispatch(deliveryIds: string[]): Promise<void> {
    return this.dispatcher.dispatch(deliveryIds);
  }
}
