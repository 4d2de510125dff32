import { Module } from '@nestjs/common';
import { BillingModule } from '@app/billing';
import { MessagingModule } from '@app/messaging';
import { Environment } from '@app/platform';
import { BudgetAlertMailQueue } from '../application/ports/budget-alert-mail.queue.port';
import { BudgetAlertRepository } from '../application/ports/budget-alert.repository.port';
import { BudgetRepository } from '../application/ports/budget.repository.port';
import { BudgetSpendReader } from '../application/ports/budget-spend.reader.port';
import { BudgetSettings } from '../domain/spend-guards-settings';
import { BillingBudgetSpendReader } from './billing/billing-budget-spend.reader';
import { MessagingBudgetAlertMailQueue } from './messaging/messaging-budget-alert-mail.queue';
import { PostgresBudgetAlertRepository } from './persistence/postgres-budget-alert.repository';
import { PostgresBudgetRepository } from './persistence/postgres-budget.repository';
import { loadBudgetSettings } from './spend-guards-config';

/**
 * Binds the budget ports (budgets, alerts, the spend billing reads, the alert mails'
 * queue) to PostgreSQL, billing's index and messaging's queue; shared by the api, the
 * worker and manage.
 */
@Module({
  imports: [MessagingModule, BillingModule],
  providers: [
    { provide: BudgetSettings, inject: [Environment], useFactory: loadBudgetSettings },
    { provide: BudgetRepository, useClass: PostgresBudgetRepository },
    { provide: BudgetAlertRepository, useClass: PostgresBudgetAlertRepository },
    { provide: BudgetSpendReader, useClass: BillingBudgetSpendReader },
    { provide: BudgetAlertMailQueue, useClass: MessagingBudgetAlertMailQueue },
  ],
  exports: [
    MessagingModule,
    BillingModule,
    BudgetSettings,
    BudgetRepository,
    BudgetAlertRepository,
    BudgetSpendReader,
    BudgetAlertMailQueue,
  ],
})
export class BudgetsInfrastructureModule {}
