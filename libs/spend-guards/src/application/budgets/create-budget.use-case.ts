import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '@app/platform';
import {
  Budget,
  BUDGET_POLICY,
  budgetOwnerKey,
  budgetOwnerOf,
  BudgetPeriod,
} from '../../domain/budget';
import { SpendGuardsError } from '../../domain/errors';
import { BudgetRepository } from '../ports/budget.repository.port';
import { BudgetFieldsInput, BudgetInput } from './budget-input.service';

export interface CreateBudgetCommand extends BudgetFieldsInput {
  /** The caller: the budget is its team's in a team's context, else its own. */
  caller: { userId: number; teamId: number | null };
  name: string;
  amount: unknown;
  period: unknown;
}

/** Creates a budget of the caller's owner, at most BUDGET_POLICY.maxBudgetsPerOwner each. */
@Injectable()
export class CreateBudgetUseCase {
  constructor(
    private readonly budgets: BudgetRepository,
    private readonly input: BudgetInput,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(command: CreateBudgetCommand): Promise<Budget> {
    const fields = this.input.check(command);
    const owner = budgetOwnerOf(command.caller);
    const ownerKey = budgetOwnerKey(owner);
    return this.uow.run(async () => {
      await this.budgets.lockOwner(ownerKey);
      if ((await this.budgets.countByOwner(ownerKey)) >= BUDGET_POLICY.maxBudgetsPerOwner)
        throw new SpendGuardsError(
          'budget_limit_reached',
          `an owner has at most ${BUDGET_POLICY.maxBudgetsPerOwner} budgets`,
        );
      return this.budgets.insert({
        owner,
        name: fields.name!,
        amount: fields.amount!,
        period: fields.period as BudgetPeriod,
        scope: {
          label: fields.label ?? null,
          endpointId: fields.endpointId ?? null,
          workergroupId: fields.workergroupId ?? null,
        },
        thresholds: fields.thresholds ?? [...BUDGET_POLICY.defaultThresholds],
        createdAt: this.clock.now(),
      });
    });
  }
}
