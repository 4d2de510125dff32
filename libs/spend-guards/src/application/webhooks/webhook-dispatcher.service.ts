import { Injectable, Logger } from '@nestjs/common';
import { WebhookDeliveryQueue } from '../ports/webhook-delivery.queue.port';

/**
 * Queues deliveries' first attempts after the commit that recorded them. A queueing that
 * fails (Redis away) is logged, not thrown: the deliveries stay pending and the worker's
 * sweep queues them again, so the writer never waits on a receiver or the queue's health.
 */
@Injectable()
export class WebhookDispatcher {
  private readonly logger = new Logger('Webhooks');

  constructor(private readonly queue: WebhookDeliveryQueue) {}

  async dispatch(deliveryIds: string[]): Promise<void> {
    if (deliveryIds.length === 0) return;
    try {
      await this.queue.enqueue(deliveryIds);
    } catch (error) {
      this.logger.warn(
        `${deliveryIds.length} webhook deliveries not queued (the sweep will): ${(error as Error).message}`,
      );
    }
  }
}
