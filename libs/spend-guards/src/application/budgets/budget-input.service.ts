import { Injectable } from '@nestjs/common';
import {
  BudgetPeriod,
  budgetNameProblem,
  parseBudgetAmount,
  periodProblem,
  scopeProblem,
  sortedThresholds,
  thresholdsProblem,
} from '../../domain/budget';
import { SpendGuardsError } from '../../domain/errors';

/** A budget's fields as a command carries them, before the domain's rules. */
export interface BudgetFieldsInput {
  name?: string;
  amount?: unknown;
  period?: unknown;
  thresholds?: unknown;
  label?: string | null;
  endpointId?: number | null;
  workergroupId?: number | null;
}

export interface CheckedBudgetFields {
  name?: string;
  amount?: string;
  period?: BudgetPeriod;
  thresholds?: number[];
  label?: string | null;
  endpointId?: number | null;
  workergroupId?: number | null;
}

/**
 * Checks the fields given by a create or an update against the domain's rules, each
 * refusal with its own code, and answers them as a budget keeps them (amount with 3
 * decimals, thresholds ascending).
 */
@Injectable()
export class BudgetInput {
  check(input: BudgetFieldsInput): CheckedBudgetFields {
    const checked: CheckedBudgetFields = {};
    if (input.name !== undefined) {
      const problem = budgetNameProblem(input.name);
      if (problem) throw new SpendGuardsError('budget_name_invalid', problem);
      checked.name = input.name;
    }
    if (input.amount !== undefined) {
      const parsed = parseBudgetAmount(input.amount);
      if ('problem' in parsed) throw new SpendGuardsError('budget_amount_invalid', parsed.problem);
      checked.amount = parsed.amount;
    }
    if (input.period !== undefined) {
      const problem = periodProblem(input.period);
      if (problem) throw new SpendGuardsError('budget_period_invalid', problem);
      checked.period = input.period as BudgetPeriod;
    }
    if (input.thresholds !== undefined) {
      const problem = thresholdsProblem(input.thresholds);
      if (problem) throw new SpendGuardsError('budget_thresholds_invalid', problem);
      checked.thresholds = sortedThresholds(input.thresholds as number[]);
    }
    const scope = {
      label: input.label,
      endpointId: input.endpointId,
      workergroupId: input.workergroupId,
    };
    const problem = scopeProblem(scope);
    if (problem) throw new SpendGuardsError('budget_scope_invalid', problem);
    for (const key of ['label', 'endpointId', 'workergroupId'] as const)
      if (scope[key] !== undefined) (checked as Record<string, unknown>)[key] = scope[key];
    return checked;
  }
}
