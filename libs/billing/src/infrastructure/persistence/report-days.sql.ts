/**
 * Maintenance of billing_report_days, the per (user, bucket, charged day) summary the
 * report's totals, scan bounds and wrapper amounts read (see the 1767000100001 migration).
 * A bucket is the contract's tree wrapper (`endpoint-<id>`, `workergroup-<id>`) for a
 * serverless contract, else its category (`instance`, `volume`).
 */
const COLUMNS = `user_id, category, bucket, day, starts, ends, min_start, max_start, min_end, max_end, amount`;

/**
 * Adds (+) or removes (-) contract $1 with its current charges. Counts and amounts are
 * added exactly; the start/end bounds only ever widen (a removed contract leaves them as
 * they were, which keeps them safe bounds), so concurrent writers need no more than the
 * row locks of ON CONFLICT.
 */
export function contractReportDaysSql(sign: '+' | '-'): string {
  const bounds =
    sign === '+'
      ? `, min_start = least(d.min_start, EXCLUDED.min_start),
           max_start = greatest(d.max_start, EXCLUDED.max_start),
           min_end = least(d.min_end, EXCLUDED.min_end),
           max_end = greatest(d.max_end, EXCLUDED.max_end)`
      : '';
  return `
    INSERT INTO billing_report_days AS d (${COLUMNS})
    SELECT c.user_id, c.category, coalesce(c.group_key, c.category), x.day,
           ${sign}(x.day = c.first_charge_day)::int, ${sign}(x.day = c.last_charge_day)::int,
           c.start_ts, c.start_ts, c.end_ts, c.end_ts, ${sign}x.amount
      FROM billing_contracts c
      JOIN (SELECT day, sum(amount) AS amount FROM billing_charges
             WHERE contract_id = $1 GROUP BY day) x ON true
     WHERE c.id = $1
     ORDER BY x.day
    ON CONFLICT (user_id, category, bucket, day) DO UPDATE SET
      starts = d.starts + EXCLUDED.starts, ends = d.ends + EXCLUDED.ends,
      amount = d.amount + EXCLUDED.amount${bounds}`;
}

/** Builds the summary in bulk for the contracts `c` selected by `join` (seed:demo). */
export function bulkReportDaysSql(join: string): string {
  return `
    INSERT INTO billing_report_days (${COLUMNS})
    SELECT c.user_id, c.category, coalesce(c.group_key, c.category), x.day,
           count(*) FILTER (WHERE x.day = c.first_charge_day),
           count(*) FILTER (WHERE x.day = c.last_charge_day),
           min(c.start_ts), max(c.start_ts), min(c.end_ts), max(c.end_ts), sum(x.amount)
      FROM (SELECT ch.contract_id, ch.day, sum(ch.amount) AS amount
              FROM billing_charges ch JOIN billing_contracts c ON c.id = ch.contract_id ${join}
             GROUP BY ch.contract_id, ch.day) x
      JOIN billing_contracts c ON c.id = x.contract_id
     GROUP BY 1, 2, 3, 4`;
}
