import { Module } from '@nestjs/common';
import { MessagingModule } from '@app/messaging';
import { Environment } from '@app/platform';
import { WebhookDeliveryQueue } from '../../application/ports/webhook-delivery.queue.port';
import { WebhookDeliveryRepository } from '../../application/ports/webhook-delivery.repository.port';
import { WebhookOutbox } from '../../application/ports/webhook-outbox.port';
import { WebhookRepository } from '../../application/ports/webhook.repository.port';
import { WebhookTransport } from '../../application/ports/webhook-transport.port';
import { WebhookDispatcher } from '../../application/webhooks/webhook-dispatcher.service';
import { WebhookSettings } from '../../domain/webhook-settings';
import { HttpWebhookTransport } from './http-webhook.transport';
import { MessagingWebhookDeliveryQueue } from './messaging-webhook-delivery.queue';
import { PostgresWebhookDeliveryRepository } from './postgres-webhook-delivery.repository';
import { PostgresWebhookOutbox } from './postgres-webhook-outbox';
import { PostgresWebhookRepository } from './postgres-webhook.repository';
import { loadWebhookSettings } from './webhook-settings.loader';

/**
 * Binds the webhook ports (endpoints, deliveries, their queue, the HTTP transport and the
 * WebhookOutbox budget alerts record through) to PostgreSQL, messaging's queue and node's
 * http client; shared by the api and the worker.
 */
@Module({
  imports: [MessagingModule],
  providers: [
    { provide: WebhookSettings, inject: [Environment], useFactory: loadWebhookSettings },
    { provide: WebhookRepository, useClass: PostgresWebhookRepository },
    { provide: WebhookDeliveryRepository, useClass: PostgresWebhookDeliveryRepository },
    { provide: WebhookDeliveryQueue, useClass: MessagingWebhookDeliveryQueue },
    { provide: WebhookTransport, useClass: HttpWebhookTransport },
    { provide: WebhookOutbox, useClass: PostgresWebhookOutbox },
    WebhookDispatcher,
  ],
  exports: [
    MessagingModule,
    WebhookSettings,
    WebhookRepository,
    WebhookDeliveryRepository,
    WebhookDeliveryQueue,
    WebhookTransport,
    WebhookOutbox,
    WebhookDispatcher,
  ],
})
export class WebhooksInfrastructureModule {}
