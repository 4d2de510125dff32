import { Logger } from '@nestjs/common';
import { Clock, Metrics } from '@app/platform';
import {
  MessageAttempt,
  MessageResult,
  MessageSender,
} from '../application/ports/message-sender.port';
import { DeliveryFailure } from '../domain/delivery-failure';
import { OutgoingMessage } from '../domain/message';
import { ProviderSenders } from './providers/provider-senders.factory';
import { RedisDeliveryLedger } from './redis/redis-delivery-ledger';

/**
 * Sends one message through the channel's provider at most once per send (its key),
 * whatever happens to the workers: it claims the send in the ledger before calling the
 * provider, records the provider's message id after, and settles an attempt with an unknown
 * outcome by asking the provider before trying again. A retryable failure is thrown (the
 * queue schedules the next attempt); a final one is returned as `abandoned`.
 */
export class ExactlyOnceDelivery extends MessageSender {
  private readonly logger = new Logger('CodeDelivery');

  constructor(
    private readonly senders: ProviderSenders,
    private readonly ledger: RedisDeliveryLedger,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
    /** Longer than a provider request can take, so a live attempt is never second-guessed. */
    private readonly leaseMs: number,
  ) {
    super();
  }

  async send({ message, attempt, maxAttempts }: MessageAttempt): Promise<MessageResult> {
    const sender = this.senders.for(message.channel);
    const key = message.idempotencyKey;
    const labels = { channel: message.channel, provider: sender.name };
    const claim = await this.ledger.claim(key, this.clock.nowMs(), this.leaseMs);
    if (claim.state === 'sent') return { outcome: 'already_sent', provider: sender.name, ...claim };
    if (claim.state === 'failed') return { outcome: 'abandoned', provider: sender.name, ...claim };
    if (claim.state === 'in_flight')
      throw new DeliveryFailure(message.channel, 'transient', 'Another attempt is in flight.');
    if (claim.state === 'uncertain') {
      const found = await sender.findSent(message, claim.since);
      if (found) {
        await this.ledger.recordSent(key, found.providerMessageId);
        if (attempt === 1) await this.ledger.reportFirstAttempt(key, 'sent');
        this.metrics.increment('code_delivery_attempts_total', {
          ...labels,
          outcome: 'already_sent',
        });
        return { outcome: 'already_sent', provider: sender.name, ...found };
      }
    }
    let sent: { providerMessageId: string };
    try {
      sent = await sender.send(message);
    } catch (error) {
      const failure =
        error instanceof DeliveryFailure
          ? error
          : // An adapter bug must not turn into a lost message: retry, but check first.
            new DeliveryFailure(message.channel, 'transient', 'Sending failed.', null, true);
      this.metrics.increment('code_delivery_attempts_total', { ...labels, outcome: failure.kind });
      return this.afterFailure(failure, message, sender.name, attempt, maxAttempts);
    }
    this.metrics.increment('code_delivery_attempts_total', { ...labels, outcome: 'sent' });
    await this.ledger.recordSent(key, sent.providerMessageId);
    if (attempt === 1) await this.ledger.reportFirstAttempt(key, 'sent');
    return { outcome: 'sent', provider: sender.name, ...sent };
  }

  /**
   * The requester waits for the first attempt: a rejection, or the provider's rate limit,
   * is answered to the client (twilio_error, twilio_rate_limited), who then decides; later
   * attempts are only for transient trouble, which the client was told nothing about.
   * A message no requester decides on (a notice) has its rate limits always retried.
   */
  private async afterFailure(
    failure: DeliveryFailure,
    message: OutgoingMessage,
    provider: string,
    attempt: number,
    maxAttempts: number,
  ): Promise<MessageResult> {
    const key = message.idempotencyKey;
    const reportable = failure.kind !== 'transient';
    const heard =
      attempt === 1 &&
      (await this.ledger.reportFirstAttempt(key, reportable ? failure.code : 'retrying'));
    const final =
      failure.kind === 'rejected' ||
      (failure.kind === 'rate_limited' && heard && message.requesterDecides) ||
      attempt >= maxAttempts;
    if (final) {
      await this.ledger.recordFailed(key, failure.code);
      this.metrics.increment('code_delivery_failures_total', {
        channel: failure.channel,
        provider,
      });
      this.logger.warn(
        `Delivery abandoned after attempt ${attempt}/${maxAttempts} by ${provider}: ${failure.message}`,
      );
      return { outcome: 'abandoned', provider, code: failure.code };
    }
    if (failure.maybeSent) await this.ledger.markUncertain(key);
    else await this.ledger.release(key);
    throw failure;
  }
}
