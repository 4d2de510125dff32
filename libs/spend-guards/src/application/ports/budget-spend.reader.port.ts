import { BudgetScope } from '../../domain/budget';

/**
 * What an owner spent on the charges of a scope over a range of UTC days, by billing's
 * footing rule (the sum of each charge line's amount rounded to 3 decimals): billing's,
 * read through its index (infrastructure/billing/billing-budget-spend.reader.ts).
 */
export abstract class BudgetSpendReader {
  /** Decimal string with 3 decimals; charges of days in [from, to), both UTC midnights. */
  abstract spent(ownerKey: number, from: Date, to: Date, scope: BudgetScope): Promise<string>;
}
