import { Injectable } from '@nestjs/common';
import {
  buildStatement,
  ChargeStatement,
  checkStatementLimits,
  rangeDays,
  StatementQuery,
  statementWindows,
} from '../domain/charge-statement';
import { ChargeStatementReader } from './ports/charge-statement.reader.port';

/**
 * GET /api/v0/charges/summary/: the caller's charges in range per calendar period and
 * group. One statement over the per-day summary: O(days x keys), not O(charges).
 */
@Injectable()
export class GetChargeStatementUseCase {
  constructor(private readonly reader: ChargeStatementReader) {}

  async execute(userId: number, query: StatementQuery): Promise<ChargeStatement> {
    checkStatementLimits(query);
    const days = rangeDays(query.gte, query.lte);
    if (!days) return { periods: [], amount: 0 };
    const windows = statementWindows(days.first, days.last, query.period);
    return buildStatement(windows, await this.reader.sums(userId, query));
  }
}
