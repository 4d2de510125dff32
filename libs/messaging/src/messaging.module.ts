import { Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { Environment, Metrics, Clock, TransactionalEntityManager } from '@app/platform';
import { MessageHandlers } from './application/message-handlers.service';
import { MessageQueue } from './application/ports/message-queue.port';
import { MessageSender } from './application/ports/message-sender.port';
import { DeliverySettings, loadDeliverySettings } from './infrastructure/delivery-settings';
import { ExactlyOnceDelivery } from './infrastructure/exactly-once-delivery';
import { OutboxMessageSender } from './infrastructure/outbox/outbox-message.sender';
import { OutboxReader } from './infrastructure/outbox/outbox.reader';
import {
  createProviderSenders,
  ProviderSenders,
} from './infrastructure/providers/provider-senders.factory';
import { BullmqMessageQueue } from './infrastructure/queue/bullmq-message.queue';
import { MessageWorker } from './infrastructure/queue/message.worker';
import { RequeueSweeper } from './infrastructure/queue/requeue.sweeper';
import { RedisDeliveryLedger } from './infrastructure/redis/redis-delivery-ledger';

/** A lease outlives the slowest provider request, so a live attempt is never second-guessed. */
function leaseMs(settings: DeliverySettings): number {
  const slowest = Math.max(settings.twilio?.timeoutMs ?? 0, settings.smtp?.timeoutMs ?? 0, 1_000);
  return Math.max(settings.jobLockMs, slowest * 2);
}

/**
 * Sending a message exactly once: the queue a sender puts its jobs on (MessageQueue), the
 * exactly-once send through the configured SMS and email providers (MessageSender), the
 * registry of job handlers and requeue sweeps (MessageHandlers) and the development
 * outbox's reader. Knows nothing of what its senders say: they word their messages.
 */
@Module({
  providers: [
    { provide: DeliverySettings, inject: [Environment], useFactory: loadDeliverySettings },
    {
      provide: RedisDeliveryLedger,
      inject: [Redis],
      useFactory: (redis: Redis) => new RedisDeliveryLedger(redis),
    },
    { provide: MessageQueue, useClass: BullmqMessageQueue },
    {
      provide: ProviderSenders,
      inject: [DeliverySettings, TransactionalEntityManager],
      useFactory: (settings: DeliverySettings, tx: TransactionalEntityManager) =>
        createProviderSenders(settings, () => new OutboxMessageSender(tx)),
    },
    {
      provide: MessageSender,
      inject: [ProviderSenders, RedisDeliveryLedger, Clock, Metrics, DeliverySettings],
      useFactory: (
        senders: ProviderSenders,
        ledger: RedisDeliveryLedger,
        clock: Clock,
        metrics: Metrics,
        settings: DeliverySettings,
      ) => new ExactlyOnceDelivery(senders, ledger, clock, metrics, leaseMs(settings)),
    },
    MessageHandlers,
    OutboxReader,
  ],
  exports: [DeliverySettings, MessageQueue, MessageSender, MessageHandlers, OutboxReader],
})
export class MessagingModule implements OnApplicationShutdown {
  constructor(private readonly senders: ProviderSenders) {}

  /** Closes pooled SMTP connections. */
  onApplicationShutdown(): void {
    this.senders.close();
  }
}

/**
 * The message worker and the requeue sweeper (BullMQ, in-process when embedded): what a
 * sender's worker module imports, in apps/worker and, unless RUN_WORKER=false, the api.
 * They run the handlers and sweeps registered with MessageHandlers.
 */
@Module({
  imports: [MessagingModule],
  providers: [MessageWorker, RequeueSweeper],
  exports: [MessagingModule],
})
export class MessagingWorkerModule {}
