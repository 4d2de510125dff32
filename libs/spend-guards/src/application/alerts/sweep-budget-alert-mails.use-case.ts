import { Injectable } from '@nestjs/common';
import { Clock } from '@app/platform';
import { BudgetSettings } from '../../domain/spend-guards-settings';
import { BudgetAlertMailQueue } from '../ports/budget-alert-mail.queue.port';
import { BudgetAlertRepository } from '../ports/budget-alert.repository.port';

/** How many pending mails one pass queues at most. */
const SWEEP_BATCH = 500;

/**
 * Queues again the alert mails still pending after BUDGET_ALERT_RETRY_SECONDS: those whose
 * job was lost between the commit and the queue (a crash, Redis away). A mail whose job is
 * still known is not queued twice (its job id is the alert's), and the delivery ledger
 * makes a second job of a sent mail send nothing.
 */
@Injectable()
export class SweepBudgetAlertMailsUseCase {
  constructor(
    private readonly alerts: BudgetAlertRepository,
    private readonly queue: BudgetAlertMailQueue,
    private readonly settings: BudgetSettings,
    private readonly clock: Clock,
  ) {}

  /** How many mails were queued again. */
  async execute(): Promise<number> {
    const before = new Date(this.clock.nowMs() - this.settings.alertRetrySeconds * 1000);
    const due = await this.alerts.pendingMailSince(before, SWEEP_BATCH);
    for (const alertId of due) await this.queue.enqueue({ alertId });
    return due.length;
  }
}
