import { Injectable, Logger } from '@nestjs/common';
import { Clock, Metrics, UnitOfWork } from '@app/platform';
import { periodAt } from '../../domain/budget-period';
import {
  alertEventId,
  BudgetAlert,
  THRESHOLD_CROSSED_EVENT,
  thresholdCrossedData,
} from '../../domain/budget-alert';
import { crossedThresholds } from '../../domain/budget-status';
import { BudgetAlertMailQueue } from '../ports/budget-alert-mail.queue.port';
import { BudgetAlertRepository } from '../ports/budget-alert.repository.port';
import { BudgetRepository } from '../ports/budget.repository.port';
import { BudgetSpendReader } from '../ports/budget-spend.reader.port';
import { WebhookOutbox } from '../ports/webhook-outbox.port';

/**
 * Evaluates an owner's budgets (docs/spend-guards.md "Alerts, exactly once"): for each,
 * the spent of its current period; each threshold reached is an alert row, inserted once
 * per (budget, period start, threshold). A new alert commits with its pending mail (the
 * row's mail state) and its webhook deliveries (WebhookOutbox.record); once committed,
 * the mail's job is queued and the deliveries dispatched. Evaluators of one owner take
 * turns on the owner's lock, so the unique row is the only arbiter they need; whatever
 * is lost after the commit (a crash, Redis away) is queued again by the sweeps.
 */
@Injectable()
export class EvaluateBudgetsUseCase {
  private readonly logger = new Logger('BudgetAlerts');

  constructor(
    private readonly budgets: BudgetRepository,
    private readonly alerts: BudgetAlertRepository,
    private readonly spend: BudgetSpendReader,
    private readonly mails: BudgetAlertMailQueue,
    private readonly webhooks: WebhookOutbox,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
  ) {}

  /**
   * The alerts this evaluation created (none when another had already). `trigger` only
   * labels the count of alerts (budget_alerts_total).
   */
  async execute(ownerKey: number, trigger: 'write' | 'sweep' = 'write'): Promise<BudgetAlert[]> {
    const created = await this.uow.run(async () => {
      await this.budgets.lockOwner(ownerKey);
      const created: BudgetAlert[] = [];
      const deliveries: string[] = [];
      const nowMs = this.clock.nowMs();
      for (const budget of await this.budgets.listByOwner(ownerKey)) {
        const period = periodAt(budget.period, nowMs);
        const spent = await this.spend.spent(ownerKey, period.start, period.end, budget.scope);
        for (const threshold of crossedThresholds(budget, spent)) {
          const alert = await this.alerts.insertOnce({
            budgetId: budget.id,
            threshold,
            period,
            spent,
            amount: budget.amount,
            createdAt: this.clock.now(),
          });
          if (!alert) continue;
          created.push(alert);
          deliveries.push(
            ...(await this.webhooks.record(ownerKey, {
              id: alertEventId(alert.id),
              type: THRESHOLD_CROSSED_EVENT,
              createdAt: alert.createdAt,
              data: thresholdCrossedData(budget, alert),
            })),
          );
        }
      }
      if (created.length > 0) this.uow.afterCommit(() => this.announce(created, deliveries));
      return created;
    });
    if (created.length > 0)
      this.metrics.increment('budget_alerts_total', { trigger }, created.length);
    return created;
  }

  private async announce(created: BudgetAlert[], deliveries: string[]): Promise<void> {
    for (const alert of created) {
      try {
        await this.mails.enqueue({ alertId: alert.id });
      } catch (error) {
        // The mail stays pending: the worker's sweep queues it again.
        this.logger.warn(
          `mail of budget alert ${alert.id} not queued (the sweep will): ${(error as Error).message}`,
        );
      }
    }
    if (deliveries.length === 0) return;
    try {
      await this.webhooks.dispatch(deliveries);
    } catch (error) {
      this.logger.warn(
        `webhook deliveries of budget alerts not dispatched (the sweep will): ${(error as Error).message}`,
      );
    }
  }
}
