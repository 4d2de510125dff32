export type DeliveryChannel = 'sms' | 'email';

/** One code to one recipient, as a provider needs it. */
export interface CodeMessage {
  channel: DeliveryChannel;
  /** E.164 phone number or email address. */
  destination: string;
  code: string;
  expiresAt: Date;
  /**
   * Stable for one (challenge, send number): every attempt of the same send carries the
   * same key, so a retried or taken-over attempt never sends a second message.
   */
  idempotencyKey: string;
}

export interface CodeDeliveryAttempt {
  message: CodeMessage;
  /** 1 for the first attempt of this send. */
  attempt: number;
  maxAttempts: number;
}

export type CodeDeliveryResult =
  | { outcome: 'sent'; provider: string; providerMessageId: string }
  /** An earlier attempt of this send had been accepted: nothing was sent now. */
  | { outcome: 'already_sent'; provider: string; providerMessageId: string }
  /** Given up for good (rejected, or out of attempts); no further attempt will be made. */
  | { outcome: 'abandoned'; provider: string; code: string };

/**
 * Delivers one attempt of one send through the configured SMS or email provider, at most
 * once per send. Throws when this attempt failed but a later one may succeed: the queue
 * schedules it with backoff.
 */
export abstract class CodeDeliveryProvider {
  abstract deliver(attempt: CodeDeliveryAttempt): Promise<CodeDeliveryResult>;
}
