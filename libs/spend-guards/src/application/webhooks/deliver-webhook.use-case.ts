import { Injectable, Logger } from '@nestjs/common';
import { JobAttempt } from '@app/messaging';
import { Clock, SecretKeeper } from '@app/platform';
import { webhookSecretAad } from '../../domain/webhook';
import {
  attemptError,
  attemptSucceeded,
  WebhookAttemptResult,
  webhookHeaders,
} from '../../domain/webhook-delivery';
import { WebhookDeliveryJob } from '../ports/webhook-delivery.queue.port';
import { WebhookDeliveryRepository } from '../ports/webhook-delivery.repository.port';
import { WebhookRepository } from '../ports/webhook.repository.port';
import { WebhookTransport } from '../ports/webhook-transport.port';

export type WebhookAttemptOutcome = 'succeeded' | 'gone';

/**
 * One attempt of a delivery (the worker's `deliver-webhook` job): the body as recorded,
 * signed now with the endpoint's current secret, posted within WEBHOOK_TIMEOUT_MS. A 2xx
 * answer is success; anything else is recorded on the row and thrown, so the queue retries
 * with its backoff; the last attempt's failure marks the delivery failed. Nothing of the
 * secret, the signature, the body or the URL reaches a log line or the row's error.
 */
@Injectable()
export class DeliverWebhookUseCase {
  private readonly logger = new Logger('Webhooks');

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly webhooks: WebhookRepository,
    private readonly transport: WebhookTransport,
    private readonly secrets: SecretKeeper,
    private readonly clock: Clock,
  ) {}

  async execute(job: WebhookDeliveryJob, attempt: JobAttempt): Promise<WebhookAttemptOutcome> {
    const delivery = await this.deliveries.findPending(job.deliveryId);
    if (!delivery) return 'gone';
    const target = await this.webhooks.findTarget(delivery.webhookId);
    if (!target) return 'gone';
    const secret = this.secrets.decrypt(target.secretCiphertext, webhookSecretAad(target.id));
    const result: WebhookAttemptResult =
      secret === null
        ? { statusCode: null, error: 'the signing secret could not be read' }
        : await this.transport.post({
            url: target.url,
            headers: webhookHeaders(
              delivery.id,
              delivery.payload,
              secret,
              Math.floor(this.clock.nowMs() / 1000),
            ),
            body: delivery.payload.body,
          });
    const succeeded = attemptSucceeded(result);
    const last = attempt.attempt >= attempt.maxAttempts;
    await this.deliveries.recordAttempt(delivery.id, {
      result: { statusCode: result.statusCode, error: succeeded ? null : attemptError(result) },
      at: this.clock.now(),
      status: succeeded ? 'succeeded' : last ? 'failed' : 'pending',
    });
    if (succeeded) return 'succeeded';
    if (last)
      this.logger.warn(
        `webhook delivery ${delivery.id} failed after ${attempt.attempt} attempts: ${attemptError(result)}`,
      );
    throw new Error(
      `webhook delivery ${delivery.id} attempt ${attempt.attempt}: ${attemptError(result)}`,
    );
  }
}
