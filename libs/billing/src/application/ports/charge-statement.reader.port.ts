import { StatementQuery, StatementSum } from '../../domain/charge-statement';

/**
 * Read side of the statement: sums of the per-day summary, never of the charges, so the
 * cost is O(days x keys) in range whatever the number of contracts (docs/billing.md).
 */
export abstract class ChargeStatementReader {
  /**
   * The owner's charges (ownerKey: chargeOwnerKey) in range, filtered by class, summed exactly and rounded once to
   * 3 decimals: per (calendar period, key), per period and over the range.
   */
  abstract sums(ownerKey: number, query: StatementQuery): Promise<StatementSum[]>;
}
