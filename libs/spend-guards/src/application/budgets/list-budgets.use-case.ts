import { Injectable } from '@nestjs/common';
import { Budget, budgetOwnerKey, budgetOwnerOf } from '../../domain/budget';
import { BudgetRepository } from '../ports/budget.repository.port';

/** The caller's owner's budgets, oldest first. */
@Injectable()
export class ListBudgetsUseCase {
  constructor(private readonly budgets: BudgetRepository) {}

  execute(caller: { userId: number; teamId: number | null }): Promise<Budget[]> {
    return this.budgets.listByOwner(budgetOwnerKey(budgetOwnerOf(caller)));
  }
}
