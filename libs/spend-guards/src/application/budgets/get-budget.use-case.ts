import { Injectable } from '@nestjs/common';
import { Clock } from '@app/platform';
import { Budget, budgetOwnerKey, budgetOwnerOf } from '../../domain/budget';
import { periodAt } from '../../domain/budget-period';
import { budgetStatus, BudgetStatus } from '../../domain/budget-status';
import { SpendGuardsError } from '../../domain/errors';
import { BudgetRepository } from '../ports/budget.repository.port';
import { BudgetSpendReader } from '../ports/budget-spend.reader.port';

export interface BudgetWithStatus {
  budget: Budget;
  status: BudgetStatus;
}

/** One budget of the caller's owner, with where it stands in its current period. */
@Injectable()
export class GetBudgetUseCase {
  constructor(
    private readonly budgets: BudgetRepository,
    private readonly spend: BudgetSpendReader,
    private readonly clock: Clock,
  ) {}

  async execute(
    caller: { userId: number; teamId: number | null },
    id: number,
  ): Promise<BudgetWithStatus> {
    const ownerKey = budgetOwnerKey(budgetOwnerOf(caller));
    const budget = await this.budgets.findForOwner(id, ownerKey);
    if (!budget) throw new SpendGuardsError('budget_not_found', 'budget not found');
    const nowMs = this.clock.nowMs();
    const period = periodAt(budget.period, nowMs);
    const spent = await this.spend.spent(ownerKey, period.start, period.end, budget.scope);
    return { budget, status: budgetStatus(budget, period, spent, nowMs) };
  }
}
