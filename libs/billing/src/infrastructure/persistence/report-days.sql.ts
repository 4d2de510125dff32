/**
 * Maintenance of billing_report_days, the per (owner, bucket, charged day) summary the
 * report's totals, scan bounds and wrapper amounts read (see the 1767000100001 and
 * 1767000100003 migrations). A bucket is the contract's tree wrapper (`endpoint-<id>`,
 * `workergroup-<id>`) for a serverless contract, else its category (`instance`, `volume`).
 * `cum_starts` / `cum_ends` are the running totals of `starts` / `ends` over the bucket's
 * days (docs/billing.md "Prefix sums").
 */
const COLUMNS = `owner_key, category, bucket, day, starts, ends, min_start, max_start, min_end, max_end, amount, billed`;

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
    SELECT c.owner_key, c.category, coalesce(c.group_key, c.category), x.day,
           ${sign}(x.day = c.first_charge_day)::int, ${sign}(x.day = c.last_charge_day)::int,
           c.start_ts, c.start_ts, c.end_ts, c.end_ts, ${sign}x.amount, ${sign}x.billed
      FROM billing_contracts c
      JOIN (SELECT day, sum(amount) AS amount, sum(round(amount, 3)) AS billed FROM billing_charges
             WHERE contract_id = $1 GROUP BY day) x ON true
     WHERE c.id = $1
     ORDER BY x.day
    ON CONFLICT (owner_key, category, bucket, day) DO UPDATE SET
      starts = d.starts + EXCLUDED.starts, ends = d.ends + EXCLUDED.ends,
      amount = d.amount + EXCLUDED.amount, billed = d.billed + EXCLUDED.billed${bounds}`;
}

/** The advisory lock key of an (owner, bucket) of billing_report_days. */
const lockKey = (owner: string, bucket: string) =>
  `hashtextextended('billing_report_days:' || ${owner} || ':' || ${bucket}, 0)`;

/**
 * Takes the summary locks of the bucket contract $1 leaves (as stored now, if it is) and
 * of the one it joins (owner key $2, kind $3, endpoint_id $4, workergroup_id $5: the bucket as
 * the generated columns category and group_key will make it), held to the end of the
 * transaction. The running totals of a bucket are recomputed from its rows, which is only
 * right while no other transaction changes them: every writer takes its buckets' locks
 * before touching any summary row, both at once in ascending order so that two writers
 * never wait on each other, and writers of other buckets go on in parallel. A hash
 * collision only serialises two buckets more.
 */
export const lockReportDaysSql = `
    WITH keys AS (
      SELECT ${lockKey(
        '$2::int',
        `CASE WHEN $3::text = 'volume' THEN 'volume'
              WHEN $4::int IS NOT NULL THEN 'endpoint-' || $4::int
              WHEN $5::int IS NOT NULL THEN 'workergroup-' || $5::int
              ELSE 'instance' END`,
      )} AS joins,
             (SELECT ${lockKey('owner_key', 'coalesce(group_key, category)')}
                FROM billing_contracts WHERE id = $1) AS leaves)
    SELECT pg_advisory_xact_lock(least(joins, coalesce(leaves, joins))),
           pg_advisory_xact_lock(greatest(joins, coalesce(leaves, joins)))
      FROM keys`;

/**
 * Recomputes the running totals of contract $1's bucket from its first charged day on,
 * after contractReportDaysSql changed that bucket's `starts` / `ends` there. The days before
 * keep theirs (the contract changed nothing there): the last of them is the base.
 * O(days of the bucket from the contract's first charged day); run under lockReportDaysSql.
 */
export const refreshReportPrefixSql = `
    WITH k AS (
      SELECT owner_key, category, coalesce(group_key, category) AS bucket, first_charge_day AS first
        FROM billing_contracts WHERE id = $1 AND first_charge_day IS NOT NULL),
    base AS (
      SELECT coalesce((SELECT ARRAY[r.cum_starts, r.cum_ends] FROM billing_report_days r
                        WHERE r.owner_key = k.owner_key AND r.category = k.category
                          AND r.bucket = k.bucket AND r.day < k.first
                        ORDER BY r.day DESC LIMIT 1), ARRAY[0, 0]) AS cum
        FROM k),
    w AS (
      SELECT r.owner_key, r.category, r.bucket, r.day,
             base.cum[1] + sum(r.starts) OVER b AS cum_starts,
             base.cum[2] + sum(r.ends) OVER b AS cum_ends
        FROM k, base, billing_report_days r
       WHERE r.owner_key = k.owner_key AND r.category = k.category AND r.bucket = k.bucket
         AND r.day >= k.first
      WINDOW b AS (ORDER BY r.day))
    UPDATE billing_report_days d SET cum_starts = w.cum_starts, cum_ends = w.cum_ends
      FROM w
     WHERE d.owner_key = w.owner_key AND d.category = w.category AND d.bucket = w.bucket
       AND d.day = w.day AND (d.cum_starts <> w.cum_starts OR d.cum_ends <> w.cum_ends)`;

/**
 * Builds the summary in bulk, running totals included, for the contracts `c` selected by
 * `join` (seed:demo): it must select all contracts of each of their owners, none of whose
 * summary rows may exist yet.
 */
export function bulkReportDaysSql(join: string): string {
  return `
    INSERT INTO billing_report_days (${COLUMNS}, cum_starts, cum_ends)
    SELECT *, sum(starts) OVER b, sum(ends) OVER b
      FROM (SELECT c.owner_key, c.category, coalesce(c.group_key, c.category) AS bucket, x.day,
                   count(*) FILTER (WHERE x.day = c.first_charge_day) AS starts,
                   count(*) FILTER (WHERE x.day = c.last_charge_day) AS ends,
                   min(c.start_ts), max(c.start_ts), min(c.end_ts), max(c.end_ts), sum(x.amount), sum(x.billed)
              FROM (SELECT ch.contract_id, ch.day, sum(ch.amount) AS amount,
                           sum(round(ch.amount, 3)) AS billed
                      FROM billing_charges ch JOIN billing_contracts c ON c.id = ch.contract_id ${join}
                     GROUP BY ch.contract_id, ch.day) x
              JOIN billing_contracts c ON c.id = x.contract_id
             GROUP BY 1, 2, 3, 4) s
    WINDOW b AS (PARTITION BY owner_key, category, bucket ORDER BY day)`;
}
