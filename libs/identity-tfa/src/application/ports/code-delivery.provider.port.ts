import { SecurityEvent } from '../../domain/security-event';

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

/**
 * A security notice to the user's address (email only): what happened, when and from
 * where, worded by the provider adapters; it never carries a code or a secret.
 */
export interface NoticeMessage {
  channel: 'email';
  destination: string;
  notice: SecurityEvent;
  /** `notice-<event id>`: one message per event, whatever happens to the workers. */
  idempotencyKey: string;
}

/** What the delivery path carries: a code, or a notice. */
export type DeliveryMessage = CodeMessage | NoticeMessage;

export function isNoticeMessage(message: DeliveryMessage): message is NoticeMessage {
  return 'notice' in message;
}

export interface CodeDeliveryAttempt {
  message: DeliveryMessage;
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
 * Delivers one attempt of one send (a code, or a security notice) through the configured
 * SMS or email provider, at most once per send. Throws when this attempt failed but a later one may succeed: the queue
 * schedules it with backoff.
 */
export abstract class CodeDeliveryProvider {
  abstract deliver(attempt: CodeDeliveryAttempt): Promise<CodeDeliveryResult>;
}
