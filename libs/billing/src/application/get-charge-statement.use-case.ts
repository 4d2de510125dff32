import { Injectable } from '@nestjs/common';
import {
  buildStatement,
  ChargeStatement,
  checkStatementLimits,
  StatementQuery,
  statementWindows,
  zonedWindows,
} from '../domain/charge-statement';
import { ChargeOwner, chargeOwnerKey } from '../domain/contract';
import { DEFAULT_TIME_ZONE, zonedRangeDays } from '../domain/time-zone';
import { ChargeStatementReader } from './ports/charge-statement.reader.port';

/**
 * GET /api/v0/charges/summary/: the charges of the caller's context (docs/billing.md "Owners") in range per calendar period and
 * group. One statement over the per-day summary: O(days x keys), not O(charges).
 */
@Injectable()
export class GetChargeStatementUseCase {
  constructor(private readonly reader: ChargeStatementReader) {}

  async execute(owner: ChargeOwner, query: StatementQuery): Promise<ChargeStatement> {
    checkStatementLimits(query);
    // The dates whose midnight in the zone lies in range; the sums are read over those
    // dates and laid out on the zone's calendar (docs/billing.md "Time zones").
    const zone = query.tz ?? DEFAULT_TIME_ZONE;
    const days = zonedRangeDays(query.gte, query.lte, zone);
    if (!days) return { periods: [], amount: 0 };
    const windows = statementWindows(days.first, days.last, query.period);
    const sums = await this.reader.sums(chargeOwnerKey(owner), {
      ...query,
      gte: days.first,
      lte: days.last,
    });
    return buildStatement(zonedWindows(windows, zone), sums);
  }
}
