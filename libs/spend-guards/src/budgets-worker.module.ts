import { DynamicModule, Module, OnModuleInit } from '@nestjs/common';
import { MessageHandlers, MessagingWorkerModule } from '@app/messaging';
import { DeliverBudgetAlertUseCase } from './application/alerts/deliver-budget-alert.use-case';
import { EvaluateBudgetsUseCase } from './application/alerts/evaluate-budgets.use-case';
import { SweepBudgetAlertMailsUseCase } from './application/alerts/sweep-budget-alert-mails.use-case';
import { SweepBudgetsUseCase } from './application/alerts/sweep-budgets.use-case';
import { AlertRecipients } from './application/ports/alert-recipients.port';
import {
  BUDGET_ALERT_MAIL_JOB,
  BudgetAlertMailJob,
} from './application/ports/budget-alert-mail.queue.port';
import { BudgetSettings } from './domain/spend-guards-settings';
import { AccountsAlertRecipients } from './infrastructure/accounts/accounts-alert-recipients';
import { BudgetsInfrastructureModule } from './infrastructure/budgets-infrastructure.module';
import { WebhooksInfrastructureModule } from './infrastructure/webhooks/webhooks-infrastructure.module';

/**
 * The worker's side of budgets (docs/spend-guards.md "Alerts, exactly once"): the alert
 * mail's job handler, the sweep of alert mails still unsent, and the safety net that
 * evaluates every owner's budgets every BUDGET_SWEEP_SECONDS, all registered with
 * messaging's worker; in apps/worker and, unless RUN_WORKER=false, the api. It reads the
 * owners' addresses through accounts, composed by whoever sees it: `withAccounts(accounts)`.
 */
@Module({
  imports: [BudgetsInfrastructureModule, WebhooksInfrastructureModule, MessagingWorkerModule],
  providers: [
    { provide: AlertRecipients, useClass: AccountsAlertRecipients },
    EvaluateBudgetsUseCase,
    SweepBudgetsUseCase,
    DeliverBudgetAlertUseCase,
    SweepBudgetAlertMailsUseCase,
  ],
})
export class BudgetsWorkerModule implements OnModuleInit {
  static withAccounts(accounts: DynamicModule): DynamicModule {
    return { module: BudgetsWorkerModule, imports: [accounts] };
  }

  constructor(
    private readonly handlers: MessageHandlers,
    private readonly deliverAlert: DeliverBudgetAlertUseCase,
    private readonly sweepMails: SweepBudgetAlertMailsUseCase,
    private readonly sweepBudgets: SweepBudgetsUseCase,
    private readonly settings: BudgetSettings,
  ) {}

  onModuleInit(): void {
    this.handlers.handle<BudgetAlertMailJob>(BUDGET_ALERT_MAIL_JOB, (job, attempt) =>
      this.deliverAlert.execute(job, attempt),
    );
    // Alert mails whose job was lost between the commit and the queue (a crash, Redis away).
    this.handlers.sweep({
      what: 'pending budget alert mails',
      everySeconds: this.settings.alertRetrySeconds,
      run: () => this.sweepMails.execute(),
    });
    // The write path's safety net: every owner with a budget, evaluated again. It answers
    // how many alerts it found (their mails queued), logged when not 0.
    this.handlers.sweep({
      what: 'mails of budget alerts the budget sweep found',
      everySeconds: this.settings.sweepSeconds,
      run: () => this.sweepBudgets.execute(),
    });
  }
}
