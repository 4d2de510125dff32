export { SpendGuardsModule, WebhooksWorkerModule } from './spend-guards.module';
export { BudgetsWorkerModule } from './budgets-worker.module';
export { WebhookOutbox, type WebhookEvent } from './application/ports/webhook-outbox.port';
export {
  verifyWebhookSignature,
  webhookSignature,
  WEBHOOK_REPLAY_WINDOW_SECONDS,
} from './domain/webhook-delivery';
