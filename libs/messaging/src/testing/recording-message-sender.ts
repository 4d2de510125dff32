import {
  MessageAttempt,
  MessageResult,
  MessageSender,
} from '../application/ports/message-sender.port';

/** Records attempts; answers with `next` (default: accepted). */
export class RecordingMessageSender extends MessageSender {
  readonly attempts: MessageAttempt[] = [];
  next: MessageResult | Error | null = null;

  async send(attempt: MessageAttempt): Promise<MessageResult> {
    this.attempts.push(attempt);
    const next = this.next;
    if (next instanceof Error) throw next;
    return next ?? { outcome: 'sent', provider: 'recording', providerMessageId: 'm1' };
  }
}
