import { BillingError } from '../domain/errors';
import {
  MAX_STATEMENT_PERIODS,
  periodCountBound,
  rangeDays,
  STATEMENT_GROUPINGS,
  STATEMENT_PERIODS,
  StatementQuery,
} from '../domain/charge-statement';
import { DAY_SECONDS } from '../domain/charge-report';
import { BILLING_ERROR_CODES } from './billing-error-codes';
import { choice, parseSelectFilters } from './parse-charge-query';

/** Calendar arithmetic (and PostgreSQL's timestamps) are defined over years 1970-9999 here. */
const EARLIEST = 0;
const LATEST = 253_402_300_799; // 9999-12-31T23:59:59Z

/**
 * GET /api/v0/charges/summary/: the report's `select_filters` (same validation and
 * messages), `period` (day, week or month; default month) and `group_by` (type, endpoint,
 * workergroup or label; default type).
 */
export function parseChargeStatementQuery(query: Record<string, unknown>): StatementQuery {
  const { gte, lte, categories } = parseSelectFilters(query);
  const period = choice(query, 'period', STATEMENT_PERIODS, 'month');
  const groupBy = choice(query, 'group_by', STATEMENT_GROUPINGS, 'type');
  if (gte < EARLIEST || lte > LATEST) {
    throw new BillingError(
      BILLING_ERROR_CODES.badRequest,
      `select_filters.day must lie between ${EARLIEST} (1970-01-01) and ${LATEST} (9999-12-31) for a statement`,
    );
  }
  const days = rangeDays(gte, lte);
  const count = days ? periodCountBound((days.last - days.first) / DAY_SECONDS + 1, period) : 0;
  if (count > MAX_STATEMENT_PERIODS) {
    throw new BillingError(
      BILLING_ERROR_CODES.badRequest,
      `the range spans more than ${MAX_STATEMENT_PERIODS} periods of a ${period}; choose a longer period or a shorter range`,
    );
  }
  return { gte, lte, categories, period, groupBy };
}
