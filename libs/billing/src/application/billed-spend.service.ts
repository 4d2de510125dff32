import { Injectable } from '@nestjs/common';
import { BilledSpendQuery, BilledSpendReader } from './ports/billed-spend.reader.port';

/**
 * What an owner spent over a range of UTC days, by billing's footing rule (each charge
 * line billed at its amount rounded to 3 decimals): the read other contexts (budgets)
 * take from billing's index instead of reading its tables.
 */
@Injectable()
export class BilledSpend {
  constructor(private readonly reader: BilledSpendReader) {}

  /** Decimal string with 3 decimals; '0.000' for an empty range. */
  async between(query: BilledSpendQuery): Promise<string> {
    if (query.toDay <= query.fromDay) return '0.000';
    return this.reader.billedBetween(query);
  }
}
