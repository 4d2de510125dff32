import { Injectable } from '@nestjs/common';
import { budgetOwnerKey, budgetOwnerOf } from '../../domain/budget';
import { SpendGuardsError } from '../../domain/errors';
import { BudgetRepository } from '../ports/budget.repository.port';

/** Deletes a budget of the caller's owner, and its alerts with it. */
@Injectable()
export class DeleteBudgetUseCase {
  constructor(private readonly budgets: BudgetRepository) {}

  async execute(caller: { userId: number; teamId: number | null }, id: number): Promise<void> {
    if (!(await this.budgets.delete(id, budgetOwnerKey(budgetOwnerOf(caller)))))
      throw new SpendGuardsError('budget_not_found', 'budget not found');
  }
}
