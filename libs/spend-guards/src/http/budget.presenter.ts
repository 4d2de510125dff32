import { BudgetWithStatus } from '../application/budgets/get-budget.use-case';
import { Budget } from '../domain/budget';
import { BudgetAlert } from '../domain/budget-alert';
import { unixSeconds } from '../domain/budget-period';
import { BudgetAlertDto, BudgetDto, BudgetWithStatusDto } from './budget.response.dto';

export function presentBudget(budget: Budget): BudgetDto {
  return {
    id: budget.id,
    name: budget.name,
    amount: budget.amount,
    period: budget.period,
    thresholds: budget.thresholds,
    label: budget.scope.label,
    endpoint_id: budget.scope.endpointId,
    workergroup_id: budget.scope.workergroupId,
    owner: { user_id: budget.owner.userId, team_id: budget.owner.teamId },
    created_at: unixSeconds(budget.createdAt),
    updated_at: unixSeconds(budget.updatedAt),
  };
}

export function presentBudgetWithStatus({ budget, status }: BudgetWithStatus): BudgetWithStatusDto {
  return {
    ...presentBudget(budget),
    status: {
      period_start: unixSeconds(status.period.start),
      period_end: unixSeconds(status.period.end),
      spent: status.spent,
      remaining: status.remaining,
      forecast: status.forecast,
      forecast_method: status.forecastMethod,
      crossed: status.crossed,
    },
  };
}

export function presentBudgetAlert(alert: BudgetAlert): BudgetAlertDto {
  return {
    id: alert.id,
    threshold: alert.threshold,
    period_start: unixSeconds(alert.periodStart),
    period_end: unixSeconds(alert.periodEnd),
    spent: alert.spent,
    amount: alert.amount,
    created_at: unixSeconds(alert.createdAt),
  };
}
