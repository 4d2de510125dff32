import { ApiSchema } from '@app/api-client';
import { formatCell, formatTimestamp } from '../output/format';
import { renderKeyValues, renderTable } from '../output/table';

export type Budget = ApiSchema<'BudgetDto'>;
export type BudgetWithStatus = ApiSchema<'BudgetWithStatusDto'>;
export type BudgetAlert = ApiSchema<'BudgetAlertDto'>;

/** `label=train endpoint=501`, or `-` for every charge of the owner. */
function scopeOf(budget: Budget): string {
  const parts = [
    budget.label !== null ? `label=${budget.label}` : null,
    budget.endpoint_id !== null ? `endpoint=${budget.endpoint_id}` : null,
    budget.workergroup_id !== null ? `workergroup=${budget.workergroup_id}` : null,
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(' ') : '-';
}

const percents = (values: number[]) =>
  values.length > 0 ? values.map((v) => `${v}%`).join(', ') : '-';

/** The UTC day a period bound names (a bound is a midnight; the end is excluded). */
const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

export function renderBudgets(budgets: Budget[]): string {
  if (budgets.length === 0) return 'No budgets.\n';
  return renderTable(
    ['id', 'name', 'amount', 'period', 'thresholds', 'scope', 'created'].map((header) => ({
      header,
    })),
    budgets.map((budget) => [
      String(budget.id),
      budget.name,
      `$${budget.amount}`,
      budget.period,
      budget.thresholds.join(','),
      scopeOf(budget),
      formatTimestamp(budget.created_at),
    ]),
  );
}

export function renderBudget(budget: Budget, verb: string): string {
  return (
    `Budget ${budget.id} ${verb}: ${budget.name}, $${budget.amount} per ${budget.period}, ` +
    `alerts at ${percents(budget.thresholds)} (scope: ${scopeOf(budget)}).\n`
  );
}

export function renderBudgetWithStatus(budget: BudgetWithStatus): string {
  const { status } = budget;
  return renderKeyValues([
    ['id', String(budget.id)],
    ['name', budget.name],
    ['amount', `$${budget.amount} per ${budget.period}`],
    ['thresholds', percents(budget.thresholds)],
    ['scope', scopeOf(budget)],
    ['period', `${day(status.period_start)} to ${day(status.period_end - 86_400)} (UTC)`],
    ['spent', `$${status.spent}`],
    ['remaining', `$${status.remaining}`],
    ['forecast', `$${status.forecast} (${status.forecast_method})`],
    ['crossed', percents(status.crossed)],
    ['created', `${formatTimestamp(budget.created_at)} UTC`],
  ]);
}

export function renderBudgetAlerts(alerts: BudgetAlert[]): string {
  if (alerts.length === 0) return 'No alerts.\n';
  return renderTable(
    ['threshold', 'period start', 'spent', 'amount', 'crossed at'].map((header) => ({ header })),
    alerts.map((alert) => [
      `${alert.threshold}%`,
      day(alert.period_start),
      `$${alert.spent}`,
      `$${alert.amount}`,
      formatCell(formatTimestamp(alert.created_at)),
    ]),
  );
}
