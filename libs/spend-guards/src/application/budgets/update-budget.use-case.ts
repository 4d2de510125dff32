import { Injectable } from '@nestjs/common';
import { Clock } from '@app/platform';
import { Budget, budgetOwnerKey, budgetOwnerOf } from '../../domain/budget';
import { SpendGuardsError } from '../../domain/errors';
import { BudgetRepository } from '../ports/budget.repository.port';
import { BudgetFieldsInput, BudgetInput } from './budget-input.service';

export interface UpdateBudgetCommand extends Omit<BudgetFieldsInput, 'period'> {
  caller: { userId: number; teamId: number | null };
  id: number;
}

/**
 * Changes what the command gives of a budget's name, amount, thresholds and scope; the
 * period stays (a budget of another period is another budget). Alerts already sent stay
 * sent: a threshold crossed again in the same period is not mailed twice.
 */
@Injectable()
export class UpdateBudgetUseCase {
  constructor(
    private readonly budgets: BudgetRepository,
    private readonly input: BudgetInput,
    private readonly clock: Clock,
  ) {}

  async execute(command: UpdateBudgetCommand): Promise<Budget> {
    const fields = this.input.check(command);
    const scope: Record<string, unknown> = {};
    for (const key of ['label', 'endpointId', 'workergroupId'] as const)
      if (fields[key] !== undefined) scope[key] = fields[key];
    const updated = await this.budgets.update(
      command.id,
      budgetOwnerKey(budgetOwnerOf(command.caller)),
      {
        name: fields.name,
        amount: fields.amount,
        thresholds: fields.thresholds,
        scope,
        updatedAt: this.clock.now(),
      },
    );
    if (!updated) throw new SpendGuardsError('budget_not_found', 'budget not found');
    return updated;
  }
}
