import { Injectable, Logger } from '@nestjs/common';
import { SecretKeeper } from '@app/platform';
import { TFA_POLICY } from '../domain/tfa-policy';
import { codeAad } from '../domain/challenge';
import { ChallengeStore } from './ports/challenge.store.port';
import { CodeDeliveryProvider } from './ports/code-delivery.provider.port';
import { CodeDeliveryJob, deliveryKey } from './ports/code-delivery.queue.port';

export type DeliveryOutcome = 'sent' | 'abandoned' | 'superseded' | 'gone';

/**
 * The worker's job: read the challenge's encrypted code and deliver one attempt of the
 * send through the provider. A job for a consumed or expired challenge, or one a newer
 * send replaced, is dropped: the newer send carries the same code. A retryable failure
 * is thrown, so the queue tries again with backoff.
 */
@Injectable()
export class DeliverCodeUseCase {
  private readonly logger = new Logger('CodeDelivery');

  constructor(
    private readonly store: ChallengeStore,
    private readonly provider: CodeDeliveryProvider,
    private readonly secrets: SecretKeeper,
  ) {}

  async execute(
    job: CodeDeliveryJob,
    attempt: { attempt: number; maxAttempts: number },
  ): Promise<DeliveryOutcome> {
    const copy = await this.store.readDeliveryCopy(job.challengeKey);
    if (!copy || !copy.destination || (copy.channel !== 'sms' && copy.channel !== 'email'))
      return 'gone';
    if (copy.sendNumber !== job.sendNumber) return 'superseded';
    const code = this.secrets.decrypt(copy.codeCiphertext, codeAad(job.challengeKey));
    if (!code) return 'gone';
    const result = await this.provider.deliver({
      message: {
        channel: copy.channel,
        destination: copy.destination,
        code,
        expiresAt: new Date(copy.createdAtMs + TFA_POLICY.challengeLifetimeMs),
        idempotencyKey: deliveryKey(job),
      },
      ...attempt,
    });
    if (result.outcome === 'abandoned') {
      await this.store.markDeliveryFailed(job.challengeKey, job.sendNumber);
      return 'abandoned';
    }
    this.logger.log(
      `Code ${result.outcome === 'sent' ? 'sent' : 'already sent'} by ${result.provider} (${copy.channel}), message ${result.providerMessageId}`,
    );
    return 'sent';
  }
}
