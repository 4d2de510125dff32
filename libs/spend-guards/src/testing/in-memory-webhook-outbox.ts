import { WebhookEvent, WebhookOutbox } from '../application/ports/webhook-outbox.port';

/** Records what the use cases hand to webhooks, for their specs. */
export class InMemoryWebhookOutbox extends WebhookOutbox {
  readonly recorded: { ownerKey: number; event: WebhookEvent; deliveryId: string }[] = [];
  readonly dispatched: string[] = [];

  async record(ownerKey: number, event: WebhookEvent): Promise<string[]> {
    const deliveryId = `delivery-${this.recorded.length + 1}`;
    this.recorded.push({ ownerKey, event, deliveryId });
    return [deliveryId];
  }

  async dispatch(deliveryIds: string[]): Promise<void> {
    this.dispatched.push(...deliveryIds);
  }
}
