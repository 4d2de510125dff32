import { OutgoingMessage } from '../../domain/message';

export interface SentMessage {
  providerMessageId: string;
}

/**
 * One adapter per provider. `send` resolves when the provider accepted the message and
 * throws a DeliveryFailure otherwise. `findSent` answers whether an earlier attempt of the
 * same send was accepted after all (the worker died before recording it); adapters that
 * cannot ask their provider answer null.
 */
export abstract class ProviderSender {
  abstract readonly name: string;
  abstract send(message: OutgoingMessage): Promise<SentMessage>;
  abstract findSent(message: OutgoingMessage, since: Date): Promise<SentMessage | null>;
}
