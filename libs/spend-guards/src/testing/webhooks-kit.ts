import {
  ManualClock,
  SeededRandomSource,
  SnapshotUnitOfWork,
  testSecretKeeper,
} from '@app/platform/testing';
import { CreateWebhookUseCase } from '../application/webhooks/create-webhook.use-case';
import { DeleteWebhookUseCase } from '../application/webhooks/delete-webhook.use-case';
import { DeliverWebhookUseCase } from '../application/webhooks/deliver-webhook.use-case';
import { ListWebhookDeliveriesUseCase } from '../application/webhooks/list-webhook-deliveries.use-case';
import { ListWebhooksUseCase } from '../application/webhooks/list-webhooks.use-case';
import { OwnedWebhooks } from '../application/webhooks/owned-webhooks.service';
import { ResendWebhookDeliveryUseCase } from '../application/webhooks/resend-webhook-delivery.use-case';
import { RotateWebhookSecretUseCase } from '../application/webhooks/rotate-webhook-secret.use-case';
import { SendTestEventUseCase } from '../application/webhooks/send-test-event.use-case';
import { ShowWebhookUseCase } from '../application/webhooks/show-webhook.use-case';
import { SweepWebhookDeliveriesUseCase } from '../application/webhooks/sweep-webhook-deliveries.use-case';
import { WebhookDispatcher } from '../application/webhooks/webhook-dispatcher.service';
import { NewWebhook } from '../application/ports/webhook.repository.port';
import { WebhookSettings } from '../domain/webhook-settings';
import { WebhookPayload } from '../domain/webhook-delivery';
import { PostgresWebhookOutbox } from '../infrastructure/webhooks/postgres-webhook-outbox';
import {
  InMemoryWebhookDeliveryRepository,
  InMemoryWebhookRepository,
  RecordingWebhookDeliveryQueue,
  ScriptedWebhookTransport,
} from './in-memory-webhooks';

/** An endpoint of owner 7 for every event type, unless `fields` say otherwise. */
export function testWebhook(fields: Partial<NewWebhook> = {}): NewWebhook {
  return {
    id: `wh_test${Math.random().toString(36).slice(2, 12)}`,
    ownerKey: 7,
    url: 'https://hooks.example.com/in',
    events: ['budget.threshold_crossed', 'webhook.test'],
    description: '',
    secretCiphertext: 'ciphertext',
    createdAt: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
    ...fields,
  };
}

/** A payload of a `webhook.test` event, unless `fields` say otherwise. */
export function testWebhookPayload(fields: Partial<WebhookPayload> = {}): WebhookPayload {
  return {
    eventId: 'evt_test1',
    eventType: 'webhook.test',
    body: '{"id":"evt_test1","type":"webhook.test","created_at":1767323045,"data":{}}',
    ...fields,
  };
}

/** Webhook settings as the defaults have them, outside production. */
export function testWebhookSettings(fields: Partial<WebhookSettings> = {}): WebhookSettings {
  return Object.assign(new WebhookSettings(), {
    production: false,
    timeoutMs: 10_000,
    maxAttempts: 8,
    backoffMs: 30_000,
    sweepSeconds: 60,
    ...fields,
  });
}

/** The webhook fakes wired together, as the module wires the real adapters. */
export function webhooksKit(
  options: { clock?: ManualClock; settings?: Partial<WebhookSettings> } = {},
) {
  const clock = options.clock ?? new ManualClock(Date.UTC(2026, 0, 2, 3, 4, 5));
  const settings = testWebhookSettings(options.settings);
  const random = new SeededRandomSource();
  const secrets = testSecretKeeper();
  const webhooks = new InMemoryWebhookRepository();
  const deliveries = new InMemoryWebhookDeliveryRepository(webhooks);
  const queue = new RecordingWebhookDeliveryQueue();
  const transport = new ScriptedWebhookTransport();
  const uow = new SnapshotUnitOfWork();
  uow.join(webhooks, deliveries);
  const owned = new OwnedWebhooks(webhooks);
  const dispatcher = new WebhookDispatcher(queue);
  return {
    clock,
    settings,
    random,
    secrets,
    webhooks,
    deliveries,
    queue,
    transport,
    uow,
    outbox: new PostgresWebhookOutbox(deliveries, dispatcher, clock),
    create: new CreateWebhookUseCase(webhooks, secrets, random, settings, uow, clock),
    list: new ListWebhooksUseCase(webhooks),
    show: new ShowWebhookUseCase(owned),
    remove: new DeleteWebhookUseCase(webhooks),
    rotate: new RotateWebhookSecretUseCase(owned, webhooks, secrets, random, uow),
    sendTest: new SendTestEventUseCase(owned, deliveries, dispatcher, random, uow, clock),
    listDeliveries: new ListWebhookDeliveriesUseCase(owned, deliveries),
    resend: new ResendWebhookDeliveryUseCase(owned, deliveries, dispatcher, uow, clock),
    deliver: new DeliverWebhookUseCase(deliveries, webhooks, transport, secrets, clock),
    sweep: new SweepWebhookDeliveriesUseCase(deliveries, queue, settings, clock),
  };
}
