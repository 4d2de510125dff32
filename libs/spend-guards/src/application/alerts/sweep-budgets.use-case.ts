import { Injectable, Logger } from '@nestjs/common';
import { Metrics } from '@app/platform';
import { BudgetRepository } from '../ports/budget.repository.port';
import { EvaluateBudgetsUseCase } from './evaluate-budgets.use-case';

/**
 * The safety net of the write path's evaluation (docs/spend-guards.md "Alerts, exactly
 * once"): evaluates every owner that has a budget, so a write whose evaluation failed, a
 * write made where no evaluator listens, or a period that began are all caught within
 * BUDGET_SWEEP_SECONDS. Answers how many alerts it created; an owner whose evaluation
 * fails is logged and the pass goes on.
 */
@Injectable()
export class SweepBudgetsUseCase {
  private readonly logger = new Logger('BudgetAlerts');

  constructor(
    private readonly budgets: BudgetRepository,
    private readonly evaluate: EvaluateBudgetsUseCase,
    private readonly metrics: Metrics,
  ) {}

  async execute(): Promise<number> {
    let created = 0;
    for (const ownerKey of await this.budgets.ownerKeys()) {
      try {
        created += (await this.evaluate.execute(ownerKey, 'sweep')).length;
      } catch (error) {
        this.logger.warn(`budgets of owner ${ownerKey} not evaluated: ${(error as Error).message}`);
      }
    }
    this.metrics.increment('budget_sweep_passes_total');
    return created;
  }
}
