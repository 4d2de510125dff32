import { DomainError } from '@app/platform';
import { MessageChannel } from './message';

/**
 * rejected: the provider refused this message for good (invalid or unreachable number,
 * mailbox unknown); retrying cannot help.
 * rate_limited: the provider's own limit; worth another try later.
 * transient: network trouble, timeouts, 5xx; retried with backoff.
 */
export type DeliveryFailureKind = 'rejected' | 'rate_limited' | 'transient';

/** Wire codes per channel and kind; transient failures never reach a client. */
const FAILURE_CODES: Record<MessageChannel, Record<DeliveryFailureKind, string>> = {
  sms: {
    rejected: 'twilio_error',
    rate_limited: 'twilio_rate_limited',
    transient: 'delivery_unavailable',
  },
  email: {
    rejected: 'email_rejected',
    rate_limited: 'delivery_unavailable',
    transient: 'delivery_unavailable',
  },
};

/** A classified provider failure. The message is safe to log: no content, no recipient. */
export class DeliveryFailure extends DomainError {
  constructor(
    readonly channel: MessageChannel,
    readonly kind: DeliveryFailureKind,
    message: string,
    /** The provider's own error code (Twilio's 21211, an SMTP reply code), when known. */
    readonly providerCode: number | null = null,
    /**
     * The request may have reached the provider and been accepted (a timeout, an answer
     * lost on the way back): a retry must check before sending again.
     */
    readonly maybeSent = false,
  ) {
    super(FAILURE_CODES[channel][kind], message);
    this.name = 'DeliveryFailure';
  }

  get retryable(): boolean {
    return this.kind !== 'rejected';
  }
}
