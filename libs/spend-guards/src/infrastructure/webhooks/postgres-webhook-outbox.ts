import { Injectable } from '@nestjs/common';
import { WebhookEvent, WebhookOutbox } from '../../application/ports/webhook-outbox.port';

/** Placeholder until the webhook endpoints exist: no endpoint, so no delivery. */
@Injectable()
export class PostgresWebhookOutbox extends WebhookOutbox {
  async record(_ownerKey: number, _event: WebhookEvent): Promise<string[]> {
    return [];
  }

  async dispatch(_deliveryIds: string[]): Promise<void> {}
}
