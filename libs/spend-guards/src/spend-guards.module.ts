import { Module, OnModuleInit } from '@nestjs/common';
import { MessageHandlers, MessagingWorkerModule } from '@app/messaging';
import { ErrorCatalog, RateLimitRegistry } from '@app/platform';
import { EvaluateBudgetsUseCase } from './application/alerts/evaluate-budgets.use-case';
import { ListBudgetAlertsUseCase } from './application/alerts/list-budget-alerts.use-case';
import { BudgetInput } from './application/budgets/budget-input.service';
import { CreateBudgetUseCase } from './application/budgets/create-budget.use-case';
import { DeleteBudgetUseCase } from './application/budgets/delete-budget.use-case';
import { GetBudgetUseCase } from './application/budgets/get-budget.use-case';
import { ListBudgetsUseCase } from './application/budgets/list-budgets.use-case';
import { UpdateBudgetUseCase } from './application/budgets/update-budget.use-case';
import { SPEND_GUARDS_ERRORS } from './domain/errors';
import { BudgetsController } from './http/budgets.controller';
import { SPEND_GUARDS_RATE_LIMITS } from './http/rate-limits';
import { BudgetsOnChargesWritten } from './infrastructure/billing/budgets-on-charges-written';
import { BudgetsInfrastructureModule } from './infrastructure/budgets-infrastructure.module';
import {
  WEBHOOK_DELIVERY_JOB,
  WebhookDeliveryJob,
} from './application/ports/webhook-delivery.queue.port';
import { CreateWebhookUseCase } from './application/webhooks/create-webhook.use-case';
import { DeleteWebhookUseCase } from './application/webhooks/delete-webhook.use-case';
import { DeliverWebhookUseCase } from './application/webhooks/deliver-webhook.use-case';
import { ListWebhookDeliveriesUseCase } from './application/webhooks/list-webhook-deliveries.use-case';
import { ListWebhooksUseCase } from './application/webhooks/list-webhooks.use-case';
import { OwnedWebhooks } from './application/webhooks/owned-webhooks.service';
import { ResendWebhookDeliveryUseCase } from './application/webhooks/resend-webhook-delivery.use-case';
import { RotateWebhookSecretUseCase } from './application/webhooks/rotate-webhook-secret.use-case';
import { SendTestEventUseCase } from './application/webhooks/send-test-event.use-case';
import { ShowWebhookUseCase } from './application/webhooks/show-webhook.use-case';
import { SweepWebhookDeliveriesUseCase } from './application/webhooks/sweep-webhook-deliveries.use-case';
import { WebhookSettings } from './domain/webhook-settings';
import { WebhooksController } from './http/webhooks.controller';
import { WebhooksInfrastructureModule } from './infrastructure/webhooks/webhooks-infrastructure.module';

/** Spend guards: budgets of an owner and their alerts, webhook endpoints and their deliveries. */
@Module({
  // The webhook ports, WebhookOutbox among them, are bound by WebhooksInfrastructureModule.
  imports: [WebhooksInfrastructureModule, BudgetsInfrastructureModule],
  controllers: [BudgetsController, WebhooksController],
  providers: [
    OwnedWebhooks,
    CreateWebhookUseCase,
    ListWebhooksUseCase,
    ShowWebhookUseCase,
    DeleteWebhookUseCase,
    RotateWebhookSecretUseCase,
    SendTestEventUseCase,
    ListWebhookDeliveriesUseCase,
    ResendWebhookDeliveryUseCase,
    BudgetInput,
    CreateBudgetUseCase,
    ListBudgetsUseCase,
    GetBudgetUseCase,
    UpdateBudgetUseCase,
    DeleteBudgetUseCase,
    ListBudgetAlertsUseCase,
    EvaluateBudgetsUseCase,
    BudgetsOnChargesWritten,
  ],
})
export class SpendGuardsModule {
  constructor(errors: ErrorCatalog, rateLimits: RateLimitRegistry) {
    errors.register(SPEND_GUARDS_ERRORS);
    rateLimits.register(SPEND_GUARDS_RATE_LIMITS);
  }
}

/**
 * Webhooks on messaging's worker: the attempts of deliveries and the
 * sweep of deliveries still pending without a job; in apps/worker and, unless
 * RUN_WORKER=false, the api.
 */
@Module({
  imports: [WebhooksInfrastructureModule, MessagingWorkerModule],
  providers: [DeliverWebhookUseCase, SweepWebhookDeliveriesUseCase],
})
export class WebhooksWorkerModule implements OnModuleInit {
  constructor(
    private readonly handlers: MessageHandlers,
    private readonly deliverWebhook: DeliverWebhookUseCase,
    private readonly sweepWebhooks: SweepWebhookDeliveriesUseCase,
    private readonly webhookSettings: WebhookSettings,
  ) {}

  onModuleInit(): void {
    this.handlers.handle<WebhookDeliveryJob>(WEBHOOK_DELIVERY_JOB, (job, attempt) =>
      this.deliverWebhook.execute(job, attempt),
    );
    // Deliveries whose job was lost between the commit and the queue (a crash, Redis away).
    this.handlers.sweep({
      what: 'pending webhook deliveries',
      everySeconds: this.webhookSettings.sweepSeconds,
      run: () => this.sweepWebhooks.execute(),
    });
  }
}
