import { OutgoingMessage } from '../../domain/message';

export interface MessageAttempt {
  message: OutgoingMessage;
  /** 1 for the first attempt of this send. */
  attempt: number;
  maxAttempts: number;
}

export type MessageResult =
  | { outcome: 'sent'; provider: string; providerMessageId: string }
  /** An earlier attempt of this send had been accepted: nothing was sent now. */
  | { outcome: 'already_sent'; provider: string; providerMessageId: string }
  /** Given up for good (rejected, or out of attempts); no further attempt will be made. */
  | { outcome: 'abandoned'; provider: string; code: string };

/**
 * Sends one attempt of one message through the channel's configured provider, at most
 * once per send (its idempotency key). Throws when this attempt failed but a later one may
 * succeed: a job handler lets it through, and the queue schedules the next attempt with
 * backoff.
 */
export abstract class MessageSender {
  abstract send(attempt: MessageAttempt): Promise<MessageResult>;
}
