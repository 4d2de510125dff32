/** The job of one delivery attempt: which delivery, never its body or its endpoint's secret. */
export interface WebhookDeliveryJob {
  deliveryId: string;
}

export const WEBHOOK_DELIVERY_JOB = 'deliver-webhook';

/** The job's key: its job id, stable for the delivery so a second enqueue is a no-op. */
export function webhookDeliveryKey(job: WebhookDeliveryJob): string {
  return `webhook-${job.deliveryId}`;
}

/** Queues the attempts of deliveries, after the commit that recorded them. */
export abstract class WebhookDeliveryQueue {
  abstract enqueue(deliveryIds: string[]): Promise<void>;
}
