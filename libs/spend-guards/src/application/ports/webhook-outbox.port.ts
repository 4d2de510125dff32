/**
 * An event a webhook endpoint may subscribe to. `id` is stable for the event: every
 * delivery of it (retries and re-sends included) carries the same id, so a receiver can
 * drop a duplicate.
 */
export interface WebhookEvent {
  id: string;
  type: 'budget.threshold_crossed' | 'webhook.test';
  createdAt: Date;
  /** The event's body (`data` on the wire), already in its wire shape. */
  data: Record<string, unknown>;
}

/**
 * Where a use case hands an event to the owner's webhooks. `record` runs inside the
 * caller's unit of work, so the deliveries exist exactly when the event does (one pending
 * delivery per active endpoint of the owner subscribed to the event's type); `dispatch`
 * runs after the commit and queues their first attempts. A queueing lost between the two
 * (a crash, Redis away) is queued again by the worker's sweep: nothing the writer waits on.
 */
export abstract class WebhookOutbox {
  abstract record(ownerKey: number, event: WebhookEvent): Promise<string[]>;
  abstract dispatch(deliveryIds: string[]): Promise<void>;
}
