/** The channels a message can go out on. */
export type MessageChannel = 'sms' | 'email';

/**
 * What a message says, worded by its sender (the context that has something to say):
 * messaging only carries it. An SMS is its `text`; an email has a subject, a plain text
 * and, optionally, an HTML version of the same text.
 */
export interface MessageContent {
  subject: string | null;
  text: string;
  html?: string;
}

/** One message to one recipient, as a provider needs it. */
export interface OutgoingMessage {
  channel: MessageChannel;
  /** E.164 phone number or email address. */
  destination: string;
  content: MessageContent;
  /**
   * What the sender calls this message: kept with it in the development outbox, so that
   * reading the outbox can keep one kind only. The outbox's table knows `code` and `notice`;
   * another kind is a migration of its check.
   */
  kind: string;
  /**
   * Stable for one send: every attempt of the same send carries the same key, so a
   * retried or taken-over attempt never sends a second message.
   */
  idempotencyKey: string;
  /**
   * Whether a provider's rate limit on the first attempt is told to a requester waiting
   * for it, who then decides (true: a code the user asked for), or always retried (false:
   * a notice nobody waits on).
   */
  requesterDecides: boolean;
}
