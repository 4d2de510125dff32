export { MessagingModule, MessagingWorkerModule } from './messaging.module';
export type { MessageChannel, MessageContent, OutgoingMessage } from './domain/message';
export {
  MessageHandlers,
  type JobAttempt,
  type RequeueSweep,
} from './application/message-handlers.service';
export {
  MessageQueue,
  type FirstAttemptReport,
  type MessageJob,
  type MessageRetry,
} from './application/ports/message-queue.port';
export {
  MessageSender,
  type MessageAttempt,
  type MessageResult,
} from './application/ports/message-sender.port';
export { OutboxReader, type OutboxMessage } from './infrastructure/outbox/outbox.reader';
export { loadDeliverySettings } from './infrastructure/delivery-settings';
