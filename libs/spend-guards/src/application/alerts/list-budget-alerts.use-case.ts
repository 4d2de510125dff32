import { Injectable } from '@nestjs/common';
import { budgetOwnerKey, budgetOwnerOf } from '../../domain/budget';
import { BudgetAlert } from '../../domain/budget-alert';
import { SpendGuardsError } from '../../domain/errors';
import { BudgetAlertRepository } from '../ports/budget-alert.repository.port';
import { BudgetRepository } from '../ports/budget.repository.port';

/** How many alerts a budget lists at most (newest first). */
export const BUDGET_ALERTS_LISTED = 500;

/** The thresholds a budget of the caller's owner crossed, newest first. */
@Injectable()
export class ListBudgetAlertsUseCase {
  constructor(
    private readonly budgets: BudgetRepository,
    private readonly alerts: BudgetAlertRepository,
  ) {}

  async execute(
    caller: { userId: number; teamId: number | null },
    id: number,
  ): Promise<BudgetAlert[]> {
    const budget = await this.budgets.findForOwner(id, budgetOwnerKey(budgetOwnerOf(caller)));
    if (!budget) throw new SpendGuardsError('budget_not_found', 'budget not found');
    return this.alerts.listByBudget(budget.id, BUDGET_ALERTS_LISTED);
  }
}
