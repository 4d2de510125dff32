import { Transactional } from '@app/platform/testing';
import { AlertRecipient, AlertRecipients } from '../application/ports/alert-recipients.port';
import {
  BudgetAlertMailJob,
  BudgetAlertMailQueue,
} from '../application/ports/budget-alert-mail.queue.port';
import { BudgetAlertRepository } from '../application/ports/budget-alert.repository.port';
import { BudgetSpendReader } from '../application/ports/budget-spend.reader.port';
import { BudgetOwner, BudgetScope } from '../domain/budget';
import { BudgetAlert, BudgetAlertNotice, NewBudgetAlert } from '../domain/budget-alert';
import { InMemoryBudgetRepository } from './in-memory-budgets';

interface StoredAlert {
  alert: BudgetAlert;
  mailSentAt: Date | null;
  mailAbandonedAt: Date | null;
}

/** Alerts in memory, unique on (budget, period start, threshold) as the table is. */
export class InMemoryBudgetAlertRepository extends BudgetAlertRepository implements Transactional {
  readonly rows = new Map<number, StoredAlert>();
  private sequence = 1;

  constructor(private readonly budgets: InMemoryBudgetRepository) {
    super();
  }

  snapshot(): () => void {
    const rows = [...this.rows].map(([id, row]) => [id, { ...row }] as const);
    return () => {
      this.rows.clear();
      for (const [id, row] of rows) this.rows.set(id, row);
    };
  }

  async insertOnce(alert: NewBudgetAlert): Promise<BudgetAlert | null> {
    for (const { alert: known } of this.rows.values())
      if (
        known.budgetId === alert.budgetId &&
        known.periodStart.getTime() === alert.period.start.getTime() &&
        known.threshold === alert.threshold
      )
        return null;
    const stored: BudgetAlert = {
      id: this.sequence++,
      budgetId: alert.budgetId,
      threshold: alert.threshold,
      periodStart: alert.period.start,
      periodEnd: alert.period.end,
      spent: alert.spent,
      amount: alert.amount,
      createdAt: alert.createdAt,
    };
    this.rows.set(stored.id, { alert: stored, mailSentAt: null, mailAbandonedAt: null });
    return { ...stored };
  }

  async listByBudget(budgetId: number, limit: number): Promise<BudgetAlert[]> {
    return [...this.live()]
      .map((row) => row.alert)
      .filter((alert) => alert.budgetId === budgetId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id)
      .slice(0, limit)
      .map((alert) => ({ ...alert }));
  }

  async findPendingMail(alertId: number): Promise<BudgetAlertNotice | null> {
    const row = this.rows.get(alertId);
    if (!row || row.mailSentAt || row.mailAbandonedAt) return null;
    const budget = this.budgets.rows.get(row.alert.budgetId);
    if (!budget) return null;
    return { alert: { ...row.alert }, budget: { ...budget } };
  }

  async markMailSent(alertId: number, at: Date): Promise<boolean> {
    return this.settle(alertId, 'mailSentAt', at);
  }

  async markMailAbandoned(alertId: number, at: Date): Promise<boolean> {
    return this.settle(alertId, 'mailAbandonedAt', at);
  }

  async pendingMailSince(createdBefore: Date, limit: number): Promise<number[]> {
    return [...this.live()]
      .filter((row) => !row.mailSentAt && !row.mailAbandonedAt)
      .filter((row) => row.alert.createdAt.getTime() < createdBefore.getTime())
      .sort(
        (a, b) =>
          a.alert.createdAt.getTime() - b.alert.createdAt.getTime() || a.alert.id - b.alert.id,
      )
      .slice(0, limit)
      .map((row) => row.alert.id);
  }

  /** The rows whose budget still exists (a budget's alerts go with it). */
  private *live(): Iterable<StoredAlert> {
    for (const row of this.rows.values()) if (this.budgets.rows.has(row.alert.budgetId)) yield row;
  }

  private settle(alertId: number, field: 'mailSentAt' | 'mailAbandonedAt', at: Date): boolean {
    const row = this.rows.get(alertId);
    if (!row || row.mailSentAt || row.mailAbandonedAt || !this.budgets.rows.has(row.alert.budgetId))
      return false;
    row[field] = at;
    return true;
  }
}

/** Records the alert mails queued; `failing` makes the next enqueues throw (Redis away). */
export class InMemoryBudgetAlertMailQueue extends BudgetAlertMailQueue {
  readonly jobs: BudgetAlertMailJob[] = [];
  failing = false;

  async enqueue(job: BudgetAlertMailJob): Promise<void> {
    if (this.failing) throw new Error('queue unavailable');
    this.jobs.push({ ...job });
  }
}

/** A spend per owner and scope the test sets, in place of billing's. */
export class StubBudgetSpendReader extends BudgetSpendReader {
  readonly reads: { ownerKey: number; from: Date; to: Date; scope: BudgetScope }[] = [];
  private readonly spends = new Map<number, string>();
  failing: Error | null = null;

  set(ownerKey: number, spent: string): void {
    this.spends.set(ownerKey, spent);
  }

  async spent(ownerKey: number, from: Date, to: Date, scope: BudgetScope): Promise<string> {
    if (this.failing) throw this.failing;
    this.reads.push({ ownerKey, from, to, scope });
    return this.spends.get(ownerKey) ?? '0.000';
  }
}

/** Addresses by user and by team, as accounts would answer them. */
export class InMemoryAlertRecipients extends AlertRecipients {
  readonly users = new Map<number, string>();
  readonly teams = new Map<number, AlertRecipient[]>();

  async of(owner: BudgetOwner): Promise<AlertRecipient[]> {
    if (owner.teamId !== null) return [...(this.teams.get(owner.teamId) ?? [])];
    const email = owner.userId === null ? undefined : this.users.get(owner.userId);
    return email ? [{ userId: owner.userId!, email }] : [];
  }
}
