import { Injectable } from '@nestjs/common';
import { MessageQueue } from '@app/messaging';
import {
  WEBHOOK_DELIVERY_JOB,
  WebhookDeliveryJob,
  webhookDeliveryKey,
  WebhookDeliveryQueue,
} from '../../application/ports/webhook-delivery.queue.port';
import { WebhookSettings } from '../../domain/webhook-settings';

/**
 * Deliveries ride the message queue (same worker and sweeper as notices), with webhooks'
 * own attempts and backoff; nobody waits for a first attempt.
 */
@Injectable()
export class MessagingWebhookDeliveryQueue extends WebhookDeliveryQueue {
  constructor(
    private readonly messages: MessageQueue,
    private readonly settings: WebhookSettings,
  ) {
    super();
  }

  async enqueue(deliveryIds: string[]): Promise<void> {
    for (const deliveryId of deliveryIds) {
      const job: WebhookDeliveryJob = { deliveryId };
      await this.messages.enqueue(
        { name: WEBHOOK_DELIVERY_JOB, key: webhookDeliveryKey(job), data: job },
        {
          awaitFirstAttempt: false,
          retry: { attempts: this.settings.maxAttempts, backoffMs: this.settings.backoffMs },
        },
      );
    }
  }
}
