import { Injectable } from '@nestjs/common';
import { BilledSpend } from '@app/billing';
import { BudgetSpendReader } from '../../application/ports/budget-spend.reader.port';
import { BudgetScope } from '../../domain/budget';

/** Billing's billed spend, read through its index (docs/spend-guards.md "Spent"). */
@Injectable()
export class BillingBudgetSpendReader extends BudgetSpendReader {
  constructor(private readonly billing: BilledSpend) {
    super();
  }

  spent(ownerKey: number, from: Date, to: Date, scope: BudgetScope): Promise<string> {
    return this.billing.between({
      ownerKey,
      fromDay: Math.floor(from.getTime() / 1000),
      toDay: Math.floor(to.getTime() / 1000),
      label: scope.label,
      endpointId: scope.endpointId,
      workergroupId: scope.workergroupId,
    });
  }
}
