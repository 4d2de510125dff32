import { Injectable } from '@nestjs/common';
import { Clock } from '@app/platform';
import { WebhookSettings } from '../../domain/webhook-settings';
import { WebhookDeliveryQueue } from '../ports/webhook-delivery.queue.port';
import { WebhookDeliveryRepository } from '../ports/webhook-delivery.repository.port';

/** At most this many deliveries per pass; the next pass takes the rest. */
export const WEBHOOK_SWEEP_BATCH = 500;

/**
 * Queues again the deliveries still pending after WEBHOOK_SWEEP_SECONDS: those whose job
 * was lost between the commit and the queue (a crash, Redis away). A delivery whose job is
 * still known (waiting, or delayed for its next retry) is not queued twice: its job id is
 * the delivery's.
 */
@Injectable()
export class SweepWebhookDeliveriesUseCase {
  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly queue: WebhookDeliveryQueue,
    private readonly settings: WebhookSettings,
    private readonly clock: Clock,
  ) {}

  /** How many deliveries were queued again. */
  async execute(): Promise<number> {
    const before = new Date(this.clock.nowMs() - this.settings.sweepSeconds * 1000);
    const due = await this.deliveries.pendingSince(before, WEBHOOK_SWEEP_BATCH);
    if (due.length > 0) await this.queue.enqueue(due);
    return due.length;
  }
}
