import { Module } from '@nestjs/common';
import { ErrorCatalog, RateLimitRegistry } from '@app/platform';
import { CreateBudgetUseCase } from './application/create-budget.use-case';
import { BudgetRepository } from './application/ports/budget.repository.port';
import { SPEND_GUARDS_ERRORS } from './domain/errors';
import { SpendGuardsController } from './http/spend-guards.controller';
import { SPEND_GUARDS_RATE_LIMITS } from './http/rate-limits';
import { PostgresBudgetRepository } from './infrastructure/persistence/postgres-budget.repository';
import { WebhookOutbox } from './application/ports/webhook-outbox.port';
import { PostgresWebhookOutbox } from './infrastructure/webhooks/postgres-webhook-outbox';

/** SpendGuards: the budgets of a user. */
@Module({
  controllers: [SpendGuardsController],
  providers: [
    { provide: BudgetRepository, useClass: PostgresBudgetRepository },
    { provide: WebhookOutbox, useClass: PostgresWebhookOutbox },
    CreateBudgetUseCase,
  ],
})
export class SpendGuardsModule {
  constructor(errors: ErrorCatalog, rateLimits: RateLimitRegistry) {
    errors.register(SPEND_GUARDS_ERRORS);
    rateLimits.register(SPEND_GUARDS_RATE_LIMITS);
  }
}
