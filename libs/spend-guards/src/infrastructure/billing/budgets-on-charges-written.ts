import { Injectable, OnModuleInit } from '@nestjs/common';
import { ChargesWritten } from '@app/billing';
import { EvaluateBudgetsUseCase } from '../../application/alerts/evaluate-budgets.use-case';

/**
 * The write path's trigger (docs/spend-guards.md "Alerts, exactly once"): once billing
 * committed an owner's charges, the owner's budgets are evaluated. Billing declares the
 * hook and never imports this context; a failing evaluation is logged by the hook and
 * never fails the write (the worker's sweep evaluates again).
 */
@Injectable()
export class BudgetsOnChargesWritten implements OnModuleInit {
  constructor(
    private readonly chargesWritten: ChargesWritten,
    private readonly evaluate: EvaluateBudgetsUseCase,
  ) {}

  onModuleInit(): void {
    this.chargesWritten.listen('budget evaluation', (ownerKey) => this.evaluate.execute(ownerKey));
  }
}
