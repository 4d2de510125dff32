import { Injectable, Logger } from '@nestjs/common';
import { JobAttempt, MessageContent, MessageSender } from '@app/messaging';
import { Clock, SecretKeeper } from '@app/platform';
import { TFA_POLICY, TfaSettings } from '../../domain/tfa-policy';
import { codeAad } from '../../domain/challenge';
import { CodeText, emailContent, smsBody } from '../../domain/code-message-text';
import { ChallengeStore } from '../ports/challenge.store.port';
import { CodeDeliveryJob, deliveryKey } from '../ports/code-delivery.queue.port';

export type DeliveryOutcome = 'sent' | 'abandoned' | 'superseded' | 'gone';

/**
 * The worker's job: read the challenge's encrypted code, word it and hand one attempt of
 * the send to messaging. A job for a consumed or expired challenge, or one a newer
 * send replaced, is dropped: the newer send carries the same code. A retryable failure
 * is thrown, so the queue tries again with backoff.
 */
@Injectable()
export class DeliverCodeUseCase {
  private readonly logger = new Logger('CodeDelivery');

  constructor(
    private readonly store: ChallengeStore,
    private readonly sender: MessageSender,
    private readonly secrets: SecretKeeper,
    private readonly settings: TfaSettings,
    private readonly clock: Clock,
  ) {}

  async execute(job: CodeDeliveryJob, attempt: JobAttempt): Promise<DeliveryOutcome> {
    const copy = await this.store.readDeliveryCopy(job.challengeKey);
    if (!copy || !copy.destination || (copy.channel !== 'sms' && copy.channel !== 'email'))
      return 'gone';
    if (copy.sendNumber !== job.sendNumber) return 'superseded';
    const code = this.secrets.decrypt(copy.codeCiphertext, codeAad(job.challengeKey));
    if (!code) return 'gone';
    const text = { code, expiresAt: new Date(copy.createdAtMs + TFA_POLICY.challengeLifetimeMs) };
    const result = await this.sender.send({
      message: {
        channel: copy.channel,
        destination: copy.destination,
        content: this.content(copy.channel, text),
        kind: 'code',
        idempotencyKey: deliveryKey(job),
        // A send-code request waits for the first attempt and tells the client what it did.
        requesterDecides: true,
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

  private content(channel: 'sms' | 'email', text: CodeText): MessageContent {
    const brand = this.settings.messageBrand;
    return channel === 'email'
      ? emailContent(brand, text, this.clock.nowMs())
      : { subject: null, text: smsBody(brand, text) };
  }
}
