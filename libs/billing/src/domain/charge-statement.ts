import { ChargeCategory, DAY_SECONDS } from './charge-report';
import { BillingError } from './errors';
import { localMidnight } from './time-zone';

/** Statement periods, in UTC; weeks start on Monday (ISO 8601). */
export const STATEMENT_PERIODS = ['day', 'week', 'month'] as const;
export type StatementPeriod = (typeof STATEMENT_PERIODS)[number];

/** What a statement's groups are keyed by (docs/billing.md "Statement"). */
export const STATEMENT_GROUPINGS = ['type', 'endpoint', 'workergroup', 'label'] as const;
export type StatementGrouping = (typeof STATEMENT_GROUPINGS)[number];

/** The key of charges whose contract has no endpoint, workergroup or label. */
export const NO_KEY = '(none)';

/** A statement answers at most this many periods (ten years of days). */
export const MAX_STATEMENT_PERIODS = 3660;

/** Calendar arithmetic (and PostgreSQL's timestamps) are defined over years 1970-9999 here. */
const EARLIEST = 0;
const LATEST = 253_402_300_799; // 9999-12-31T23:59:59Z

export interface StatementQuery {
  gte: number;
  lte: number;
  categories: ChargeCategory[] | null;
  period: StatementPeriod;
  groupBy: StatementGrouping;
  /**
   * A second dimension (`group_by=endpoint,type`): groups are then (key, subkey) pairs. One
   * of the two is `type`, the class every summary row carries (docs/billing.md "Statement").
   */
  thenBy?: StatementGrouping;
  /** IANA zone whose calendar the periods follow (docs/billing.md "Time zones"); absent: UTC. */
  tz?: string;
}

/**
 * The limits of a statement: its range must lie in years 1970-9999 (calendar arithmetic)
 * and span at most MAX_STATEMENT_PERIODS periods. Throws the 400 that names the limit.
 */
export function checkStatementLimits(query: StatementQuery): void {
  if (query.gte < EARLIEST || query.lte > LATEST) {
    throw new BillingError(
      'bad_request',
      `select_filters.day must lie between ${EARLIEST} (1970-01-01) and ${LATEST} (9999-12-31) for a statement`,
    );
  }
  const days = rangeDays(query.gte, query.lte);
  const count = days ? periodCount(days.first, days.last, query.period) : 0;
  if (count > MAX_STATEMENT_PERIODS) {
    throw new BillingError(
      'bad_request',
      `the range spans more than ${MAX_STATEMENT_PERIODS} periods of a ${query.period}; choose a longer period or a shorter range`,
    );
  }
}

/** One period of the range: `start`/`end` clipped to the range's days, `bucket` unclipped. */
export interface StatementWindow {
  /** Start of the calendar period (unix s): what the SQL's date_trunc returns. */
  bucket: number;
  /** Midnight of the period's first day inside the range. */
  start: number;
  /** End (exclusive) of the period's last day inside the range. */
  end: number;
}

/** The charged days the range covers: UTC midnights d with gte <= d <= lte. */
export function rangeDays(gte: number, lte: number): { first: number; last: number } | null {
  const first = Math.ceil(gte / DAY_SECONDS) * DAY_SECONDS;
  const last = Math.floor(lte / DAY_SECONDS) * DAY_SECONDS;
  return first <= last ? { first, last } : null;
}

/** Start of the UTC calendar period holding midnight `day` (unix s). */
export function periodStart(day: number, period: StatementPeriod): number {
  if (period === 'day') return day;
  const date = new Date(day * 1000);
  if (period === 'week') {
    const sinceMonday = (date.getUTCDay() + 6) % 7;
    return day - sinceMonday * DAY_SECONDS;
  }
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / 1000;
}

/** Start of the period after the one starting at `start`. */
function nextPeriod(start: number, period: StatementPeriod): number {
  if (period === 'day') return start + DAY_SECONDS;
  if (period === 'week') return start + 7 * DAY_SECONDS;
  const date = new Date(start * 1000);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / 1000;
}

/**
 * The number of periods meeting the days `first`..`last` (midnights): exactly the length of
 * statementWindows, computed in O(1) so that any range can be checked before it is laid out.
 */
export function periodCount(first: number, last: number, period: StatementPeriod): number {
  if (period === 'day') return (last - first) / DAY_SECONDS + 1;
  if (period === 'week')
    return (periodStart(last, 'week') - periodStart(first, 'week')) / (7 * DAY_SECONDS) + 1;
  const [a, b] = [new Date(first * 1000), new Date(last * 1000)];
  return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth() + 1;
}

/**
 * Every period that meets the range's days, in order, including those without charges
 * (an accountant's statement lists each month). The first and last are clipped to the
 * range. The caller checks the count first (periodCount).
 */
export function statementWindows(
  first: number,
  last: number,
  period: StatementPeriod,
): StatementWindow[] {
  const windows: StatementWindow[] = [];
  for (let bucket = periodStart(first, period); bucket <= last;) {
    const next = nextPeriod(bucket, period);
    windows.push({
      bucket,
      start: Math.max(bucket, first),
      end: Math.min(next, last + DAY_SECONDS),
    });
    bucket = next;
  }
  return windows;
}

/** The windows' clipped bounds as the zone's midnights (a DST day is 23 or 25 hours). */
export function zonedWindows(windows: StatementWindow[], zone: string): StatementWindow[] {
  return windows.map((window) => ({
    bucket: window.bucket,
    start: localMidnight(window.start, zone),
    end: localMidnight(window.end, zone),
  }));
}

export interface StatementGroup {
  key: string;
  /** The second dimension's key, when the statement has two. */
  subkey?: string;
  amount: number;
}

export interface StatementPeriodTotals {
  start: number;
  end: number;
  groups: StatementGroup[];
  amount: number;
}

export interface ChargeStatement {
  periods: StatementPeriodTotals[];
  amount: number;
}

/**
 * One row of the statement's sums, each an exact decimal sum rounded once to 3 places:
 * a (period, key) cell, a period's total (key null), or the range's total (both null).
 */
export interface StatementSum {
  bucket: number | null;
  key: string | null;
  /** The second dimension's key of a cell (absent with one dimension). */
  subkey?: string | null;
  amount: string;
}

const bytes = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Lays the sums out on the range's periods; groups in key (then subkey) byte order. */
export function buildStatement(
  windows: StatementWindow[],
  sums: readonly StatementSum[],
): ChargeStatement {
  const groups = new Map<number, StatementGroup[]>();
  const periodAmounts = new Map<number, number>();
  let total = 0;
  for (const sum of sums) {
    const amount = Number(sum.amount);
    if (sum.bucket === null) total = amount;
    else if (sum.key === null) periodAmounts.set(sum.bucket, amount);
    else {
      const list = groups.get(sum.bucket) ?? [];
      list.push(
        sum.subkey === undefined || sum.subkey === null
          ? { key: sum.key, amount }
          : { key: sum.key, subkey: sum.subkey, amount },
      );
      groups.set(sum.bucket, list);
    }
  }
  return {
    periods: windows.map((window) => ({
      start: window.start,
      end: window.end,
      groups: (groups.get(window.bucket) ?? []).sort(
        (a, b) => bytes(a.key, b.key) || bytes(a.subkey ?? '', b.subkey ?? ''),
      ),
      amount: periodAmounts.get(window.bucket) ?? 0,
    })),
    amount: total,
  };
}
