import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '@app/platform';
import { Budget, budgetNameProblem } from '../domain/budget';
import { SpendGuardsError } from '../domain/errors';
import { BudgetRepository } from './ports/budget.repository.port';

export interface CreateBudgetCommand {
  userId: number;
  name: string;
}

/** Creates a budget owned by the caller. */
@Injectable()
export class CreateBudgetUseCase {
  constructor(
    private readonly budgets: BudgetRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(command: CreateBudgetCommand): Promise<Budget> {
    const problem = budgetNameProblem(command.name);
    if (problem) throw new SpendGuardsError('budget_name_invalid', problem);
    return this.uow.run(() =>
      this.budgets.insert({
        userId: command.userId,
        name: command.name,
        createdAt: this.clock.now(),
      }),
    );
  }
}
