import { Budget, BudgetPeriod } from '../../domain/budget';
import { BudgetAlert } from '../../domain/budget-alert';

/** A row of budgets as the pg driver returns it (numeric as text). */
export interface BudgetRow {
  id: number;
  user_id: number | null;
  team_id: number | null;
  owner_key: number;
  name: string;
  amount: string;
  period: BudgetPeriod;
  label: string | null;
  endpoint_id: number | null;
  workergroup_id: number | null;
  thresholds: number[];
  created_at: Date;
  updated_at: Date;
}

export const BUDGET_COLUMNS =
  'id, user_id, team_id, owner_key, name, amount::text AS amount, period, label, endpoint_id, ' +
  'workergroup_id, thresholds, created_at, updated_at';

export function toBudget(row: BudgetRow): Budget {
  return {
    id: row.id,
    owner: { userId: row.user_id, teamId: row.team_id },
    ownerKey: row.owner_key,
    name: row.name,
    amount: row.amount,
    period: row.period,
    scope: { label: row.label, endpointId: row.endpoint_id, workergroupId: row.workergroup_id },
    thresholds: row.thresholds,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A row of budget_alerts (bigint id as text). */
export interface BudgetAlertRow {
  id: string;
  budget_id: number;
  threshold: number;
  period_start: Date;
  period_end: Date;
  spent: string;
  amount: string;
  created_at: Date;
}

export const ALERT_COLUMNS =
  'a.id, a.budget_id, a.threshold, a.period_start, a.period_end, a.spent::text AS spent, ' +
  'a.amount::text AS amount, a.created_at';

export function toBudgetAlert(row: BudgetAlertRow): BudgetAlert {
  return {
    id: Number(row.id),
    budgetId: row.budget_id,
    threshold: row.threshold,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    spent: row.spent,
    amount: row.amount,
    createdAt: row.created_at,
  };
}
