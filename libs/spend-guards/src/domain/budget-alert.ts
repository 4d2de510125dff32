import { Budget, BudgetOwner, BudgetPeriod } from './budget';
import { PeriodWindow, unixSeconds } from './budget-period';

/**
 * A threshold a budget's spend crossed in one period: written once per (budget, period
 * start, threshold), whoever evaluates and however often. It carries what its mail says
 * (the budget as it was then), and the state of that mail: pending until sent or abandoned.
 */
export interface BudgetAlert {
  readonly id: number;
  readonly budgetId: number;
  readonly threshold: number;
  readonly periodStart: Date;
  readonly periodEnd: Date;
  /** Decimal strings with 3 decimals: the spent when crossed, and the budget's amount then. */
  readonly spent: string;
  readonly amount: string;
  readonly createdAt: Date;
}

/** What an alert's mail and webhook event say: the alert and its budget. */
export interface BudgetAlertNotice {
  alert: BudgetAlert;
  budget: Pick<Budget, 'id' | 'name' | 'period' | 'owner' | 'ownerKey'>;
}

export interface NewBudgetAlert {
  budgetId: number;
  threshold: number;
  period: PeriodWindow;
  spent: string;
  amount: string;
  createdAt: Date;
}

/** The webhook event type of a crossing (WebhookOutbox). */
export const THRESHOLD_CROSSED_EVENT = 'budget.threshold_crossed';

/** The event's id: stable for the alert, so every delivery of it carries the same id. */
export function alertEventId(alertId: number): string {
  return `budget-alert-${alertId}`;
}

/** The event's `data`, in its wire shape (docs/spend-guards.md "Alerts"). */
export interface ThresholdCrossedData extends Record<string, unknown> {
  budget_id: number;
  budget_name: string;
  threshold_percent: number;
  period: BudgetPeriod;
  period_start: number;
  period_end: number;
  amount: string;
  spent: string;
  owner: { user_id: number | null; team_id: number | null };
}

export function thresholdCrossedData(
  budget: { id: number; name: string; period: BudgetPeriod; owner: BudgetOwner },
  alert: BudgetAlert,
): ThresholdCrossedData {
  return {
    budget_id: budget.id,
    budget_name: budget.name,
    threshold_percent: alert.threshold,
    period: budget.period,
    period_start: unixSeconds(alert.periodStart),
    period_end: unixSeconds(alert.periodEnd),
    amount: alert.amount,
    spent: alert.spent,
    owner: { user_id: budget.owner.userId, team_id: budget.owner.teamId },
  };
}
