import { Injectable, Logger } from '@nestjs/common';
import { Metrics, SecretKeeper } from '@app/platform';
import { codeAad } from './challenge.service';
import { ChallengeStore } from './ports/challenge.store.port';
import { CodeDeliveryJob } from './ports/code-delivery.queue.port';
import { CodeDeliveryProvider } from './ports/code-delivery.provider.port';

export type DeliveryOutcome = 'sent' | 'superseded' | 'gone';

/**
 * The worker's job: read the challenge's encrypted code, send it through the configured
 * provider, then drop the copy. A job for a consumed, expired or re-sent challenge is
 * dropped: its code could no longer be used anyway.
 */
@Injectable()
export class DeliverCodeUseCase {
  private readonly logger = new Logger('CodeDelivery');

  constructor(
    private readonly store: ChallengeStore,
    private readonly provider: CodeDeliveryProvider,
    private readonly secrets: SecretKeeper,
    private readonly metrics: Metrics,
  ) {}

  async execute(job: CodeDeliveryJob): Promise<DeliveryOutcome> {
    const copy = await this.store.readDeliveryCopy(job.challengeKey);
    if (!copy || !copy.destination || (copy.channel !== 'sms' && copy.channel !== 'email'))
      return 'gone';
    if (copy.sendNumber !== job.sendNumber) return 'superseded';
    const code = this.secrets.decrypt(copy.codeCiphertext, codeAad(job.challengeKey));
    if (!code) return 'gone';
    const labels = { channel: copy.channel, provider: this.provider.name };
    const result = await this.provider
      .send({
        channel: copy.channel,
        to: copy.destination,
        subject: copy.channel === 'email' ? 'Your verification code' : null,
        text:
          copy.channel === 'email'
            ? `Your verification code is ${code}. It expires in 10 minutes. If you did not ask for it, ignore this message.`
            : `Your verification code is ${code}. It expires in 10 minutes.`,
        userId: copy.userId,
        purpose: copy.purpose,
      })
      .catch((error: unknown) => {
        this.metrics.increment('code_delivery_attempts_total', { ...labels, outcome: 'error' });
        throw error;
      });
    this.metrics.increment('code_delivery_attempts_total', { ...labels, outcome: 'sent' });
    await this.store.clearDeliveryCopy(job.challengeKey, job.sendNumber);
    this.logger.log(
      `Code sent by ${this.provider.name} (${copy.channel}), message ${result.providerMessageId}`,
    );
    return 'sent';
  }
}
