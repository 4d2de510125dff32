import {
  CHARGE_CATEGORIES,
  ChargeCategory,
  ChargeFilter,
  DAY_SECONDS,
  SortKey,
} from '../../domain/charge-report';

/**
 * The SQL of the charges report, as plain text + parameters, so the repository and the
 * benchmark's SQL floor (bench/) run exactly the same statements. Cost per page: the
 * head (page 1 only) is O(buckets) index probes of the running totals; a page is O(limit)
 * index entries plus the non-matching ones whose sort key lies between matching ones,
 * plus one index probe per serverless wrapper of the owner in tree format (docs/billing.md).
 */
export interface SqlStatement {
  text: string;
  values: unknown[];
}

class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Placeholders shared by every fragment of one statement. */
interface Refs {
  p: Params;
  owner: string;
  gte: string;
  lte: string;
}

function refs(ownerKey: number, filter: ChargeFilter): Refs {
  const p = new Params();
  return { p, owner: p.add(ownerKey), gte: p.add(filter.gte), lte: p.add(filter.lte) };
}

/**
 * A contract (alias c) belongs to the report when it has a charge with gte <= day <= lte:
 * the interval test on its charge-day summary is exact unless its charge days have holes,
 * where the EXISTS probe of the charges primary key decides.
 */
function charged(r: Refs): string {
  return `c.first_charge_day <= ${r.lte} AND c.last_charge_day >= ${r.gte}
      AND (NOT c.charge_days_gapped OR EXISTS (
        SELECT 1 FROM billing_charges ch
         WHERE ch.contract_id = c.id AND ch.day >= ${r.gte} AND ch.day <= ${r.lte}))`;
}

/** ... and was committed in the walk's snapshot (the one of its first page). */
function visible(snapshot: string): string {
  return `pg_visible_in_snapshot(c.created_xid, ${snapshot}::pg_snapshot)`;
}

/** Contracts counted by their charge-day span although no charge day falls in range. */
function gappedMisses(r: Refs): string {
  return `c.charge_days_gapped AND c.first_charge_day <= ${r.lte} AND c.last_charge_day >= ${r.gte}
      AND NOT EXISTS (
        SELECT 1 FROM billing_charges ch
         WHERE ch.contract_id = c.id AND ch.day >= ${r.gte} AND ch.day <= ${r.lte})`;
}

/**
 * The contracts of one bucket whose charged days span [gte, lte] (first charged day <= lte,
 * last charged day >= gte): the running total of first days at the bucket's last day
 * <= lte, less that of last days at its last day < gte. Two index probes.
 */
function spanned(r: Refs, category: string, bucket: string): string {
  const at = (column: string, day: string) =>
    `coalesce((SELECT p.${column} FROM billing_report_days p
                WHERE p.owner_key = ${r.owner} AND p.category = ${category} AND p.bucket = ${bucket}
                  AND ${day}
                ORDER BY p.day DESC LIMIT 1), 0)`;
  return `${at('cum_starts', `p.day <= ${r.lte}`)} - ${at('cum_ends', `p.day < ${r.gte}`)}`;
}

/** The walk column, and the columns bounding it in billing_report_days and in `groups`. */
function walk(latestFirst: boolean) {
  return latestFirst
    ? { column: 'end_ts', dir: 'DESC', lo: 'min_end', hi: 'max_end', glo: 'lo_end', ghi: 'hi_end' }
    : {
        column: 'start_ts',
        dir: 'ASC',
        lo: 'min_start',
        hi: 'max_start',
        glo: 'lo_start',
        ghi: 'hi_start',
      };
}

/** Strictly after the cursor; the redundant range bound lets the index start there. */
function keyset(
  r: Refs,
  value: string,
  source: string,
  after: SortKey | null,
  latestFirst: boolean,
) {
  if (!after) return '';
  const v = r.p.add(after.value);
  const s = r.p.add(after.source);
  return latestFirst
    ? `AND ${value} <= ${v} AND (${value} < ${v} OR ${source} > ${s})`
    : `AND ${value} >= ${v} AND (${value} > ${v} OR ${source} > ${s})`;
}

/**
 * Up to `limit` matching contracts of `categories` after the cursor, in report order, as
 * (id, source, sort_ts). The scan is confined to [lowest, highest] walk value of the
 * contracts charged in range (from billing_report_days), so it neither starts among
 * contracts that end after every match nor runs on through the owner's older history.
 */
function contractKeys(
  r: Refs,
  snapshot: string,
  categories: readonly ChargeCategory[],
  after: SortKey | null,
  latestFirst: boolean,
  limit: string,
): string {
  const { column, dir, lo, hi } = walk(latestFirst);
  const cats = r.p.add(categories);
  // One pass over the summary's days for both bounds (a CTE: computed once).
  const bounds = `(SELECT min(r.${lo}) AS lo, max(r.${hi}) AS hi FROM billing_report_days r
         WHERE r.owner_key = ${r.owner} AND r.day >= ${r.gte} AND r.day <= ${r.lte}
           AND r.category = ANY(${cats}::text[]))`;
  return `WITH bounds AS MATERIALIZED ${bounds}
    SELECT c.id, c.source, c.${column} AS sort_ts FROM billing_contracts c
     WHERE c.owner_key = ${r.owner}
       AND c.${column} >= (SELECT lo FROM bounds)
       AND c.${column} <= (SELECT hi FROM bounds)
       AND c.category = ANY(${cats}::text[]) AND ${visible(snapshot)} AND ${charged(r)}
       ${keyset(r, `c.${column}`, 'c.source', after, latestFirst)}
     ORDER BY c.${column} ${dir}, c.source
     LIMIT ${limit}`;
}

/** Classes shown as contract rows in tree format, and whether wrappers are wanted. */
export function treeParts(categories: ChargeCategory[] | null): {
  plain: ChargeCategory[];
  wrappers: boolean;
} {
  const wanted = categories ?? [...CHARGE_CATEGORIES];
  return {
    plain: wanted.filter((category) => category !== 'serverless'),
    wrappers: wanted.includes('serverless'),
  };
}

const CONTRACT_COLUMNS = `k.kind, k.label, k.template_id, k.endpoint_id, k.workergroup_id`;

/**
 * One page: rows (row_kind, id, source, start_ts, end_ts, contracts, kind, label,
 * template_id, endpoint_id, workergroup_id) in report order, as of `snapshot` (a
 * pg_snapshot from the walk's head statement).
 */
export function pageStatement(
  ownerKey: number,
  filter: ChargeFilter,
  snapshot: string,
  after: SortKey | null,
  limit: number,
): SqlStatement {
  const r = refs(ownerKey, filter);
  const snap = r.p.add(snapshot);
  const n = r.p.add(limit);
  const { column, dir, glo, ghi } = walk(filter.latestFirst);
  const order = `ORDER BY e.sort_ts ${dir}, e.source`;
  if (filter.format === 'table') {
    const categories = filter.categories ?? CHARGE_CATEGORIES;
    // Keys come from an index-only scan; only the page's rows visit the heap.
    const text = `
      WITH keys AS (${contractKeys(r, snap, categories, after, filter.latestFirst, n)})
      SELECT 'contract' AS row_kind, k.id, k.source, k.start_ts, k.end_ts, NULL::int AS contracts,
             ${CONTRACT_COLUMNS}
        FROM keys e JOIN billing_contracts k ON k.id = e.id
       ${order}`;
    return { text, values: r.p.values };
  }

  const parts = treeParts(filter.categories);
  const ctes: string[] = [];
  const branches: string[] = [];
  if (parts.plain.length > 0) {
    ctes.push(`plain AS (${contractKeys(r, snap, parts.plain, after, filter.latestFirst, n)})`);
    branches.push(`SELECT 'contract' AS row_kind, id, source, sort_ts FROM plain`);
  }
  if (parts.wrappers) {
    // Wrappers are the serverless buckets charged in range; each one's sort key is one
    // index probe for its first visible matching contract in walk order.
    ctes.push(`groups AS (
        SELECT r.bucket, min(r.min_start) AS lo_start, max(r.max_start) AS hi_start,
               min(r.min_end) AS lo_end, max(r.max_end) AS hi_end
          FROM billing_report_days r
         WHERE r.owner_key = ${r.owner} AND r.category = 'serverless'
           AND r.day >= ${r.gte} AND r.day <= ${r.lte}
         GROUP BY r.bucket)`);
    ctes.push(`wrappers AS (
        SELECT g.bucket AS source, w.sort_ts FROM groups g
         CROSS JOIN LATERAL (
           SELECT c.${column} AS sort_ts FROM billing_contracts c
            WHERE c.owner_key = ${r.owner} AND c.group_key = g.bucket
              AND c.${column} >= g.${glo} AND c.${column} <= g.${ghi}
              AND ${visible(snap)} AND ${charged(r)}
            ORDER BY c.${column} ${dir}
            LIMIT 1) w
         WHERE true ${keyset(r, 'w.sort_ts', 'g.bucket', after, filter.latestFirst)})`);
    branches.push(`SELECT 'wrapper' AS row_kind, NULL::int AS id, source, sort_ts FROM wrappers`);
  }
  // A wrapper's other bound (earliest start or latest end) and its contract count (from the
  // running totals, as in headStatement) are subqueries that run only for the page's
  // wrappers: coalesce and CASE evaluate them for rows without a contract alone.
  const other = walk(!filter.latestFirst);
  const otherTs = parts.wrappers
    ? `(SELECT c.${other.column} FROM billing_contracts c, groups g
         WHERE g.bucket = e.source AND c.owner_key = ${r.owner} AND c.group_key = e.source
           AND c.${other.column} >= g.${other.glo} AND c.${other.column} <= g.${other.ghi}
           AND ${visible(snap)} AND ${charged(r)}
         ORDER BY c.${other.column} ${other.dir}
         LIMIT 1)`
    : 'NULL::bigint';
  const contracts = parts.wrappers
    ? `CASE WHEN e.row_kind = 'wrapper' THEN (${spanned(r, `'serverless'`, 'e.source')}
         - (SELECT count(*) FROM billing_contracts c
             WHERE c.owner_key = ${r.owner} AND c.group_key = e.source AND ${gappedMisses(r)})
       )::int END`
    : 'NULL::int';
  const text = `
    WITH ${ctes.join(',\n')},
    page AS (
      SELECT * FROM (${branches.join(' UNION ALL ')}) e
       ${order}
       LIMIT ${n})
    SELECT e.row_kind, e.id, e.source,
           coalesce(k.start_ts, ${filter.latestFirst ? otherTs : 'e.sort_ts'}) AS start_ts,
           coalesce(k.end_ts, ${filter.latestFirst ? 'e.sort_ts' : otherTs}) AS end_ts,
           ${contracts} AS contracts, ${CONTRACT_COLUMNS}
      FROM page e
      LEFT JOIN billing_contracts k ON k.id = e.id
     ${order}`;
  return { text, values: r.p.values };
}

/** Longer snapshots (hundreds of transactions in flight) fall back to their xmin. */
const MAX_SNAPSHOT_CHARS = 2048;

/**
 * The head of a walk, run for its first page. Columns:
 *
 * - `snapshot`: the snapshot this statement runs in, reduced to what decides the
 *   visibility of this owner's contracts: with M the newest created_xid among them, every
 *   contract with xid <= M committed in it is visible, xids above M are not (a contract
 *   written later gets a larger xid), and in-flight xids up to M stay invisible. Later
 *   pages see exactly the contracts committed in it, and two walks over unchanged data
 *   get the same snapshot (and so the same tokens).
 * - `total`, counted in that same snapshot: not a count over contracts but, per bucket of
 *   the owner (walked in the summary's index, one probe each), contracts with first charged
 *   day <= lte minus those with last charged day < gte read from the running totals, less
 *   the gapped contracts with no charge in range. In tree format every serverless bucket
 *   with at least one such contract is one wrapper.
 */
export function headStatement(ownerKey: number, filter: ChargeFilter): SqlStatement {
  const r = refs(ownerKey, filter);
  const cats = r.p.add(filter.categories ?? CHARGE_CATEGORIES);
  const counted =
    filter.format === 'table'
      ? 'coalesce(sum(n), 0)'
      : `coalesce(sum(n) FILTER (WHERE category <> 'serverless'), 0)
         + count(*) FILTER (WHERE category = 'serverless' AND n > 0)`;
  const text = `
    WITH RECURSIVE owner_buckets AS (
      (SELECT r.category, r.bucket FROM billing_report_days r
        WHERE r.owner_key = ${r.owner} ORDER BY r.category, r.bucket LIMIT 1)
      UNION ALL
      SELECT n.category, n.bucket FROM owner_buckets b CROSS JOIN LATERAL (
        SELECT r.category, r.bucket FROM billing_report_days r
         WHERE r.owner_key = ${r.owner} AND (r.category, r.bucket) > (b.category, b.bucket)
         ORDER BY r.category, r.bucket LIMIT 1) n),
    spans AS MATERIALIZED (
      SELECT b.category, b.bucket, ${spanned(r, 'b.category', 'b.bucket')} AS n
        FROM owner_buckets b WHERE b.category = ANY(${cats}::text[])),
    misses AS (
      SELECT coalesce(c.group_key, c.category) AS bucket, count(*) AS n
        FROM billing_contracts c
       WHERE c.owner_key = ${r.owner} AND c.category = ANY(${cats}::text[]) AND ${gappedMisses(r)}
       GROUP BY 1),
    buckets AS (
      SELECT s.category, s.n - coalesce(m.n, 0) AS n FROM spans s LEFT JOIN misses m USING (bucket)),
    current AS (SELECT pg_current_snapshot() AS s),
    bounds AS (
      SELECT least(pg_snapshot_xmin(current.s)::text::bigint, top.m + 1) AS lo, top.m + 1 AS hi
        FROM current,
             (SELECT coalesce(max(c.created_xid)::text::bigint, 0) AS m
                FROM billing_contracts c WHERE c.owner_key = ${r.owner}) top),
    reduced AS (
      SELECT b.lo, b.lo || ':' || b.hi || ':' || coalesce(
               (SELECT string_agg(x::text, ',' ORDER BY x::text::bigint)
                  FROM pg_snapshot_xip(current.s) x
                 WHERE x::text::bigint >= b.lo AND x::text::bigint < b.hi), '') AS snapshot
        FROM bounds b, current)
    SELECT CASE WHEN length(snapshot) <= ${MAX_SNAPSHOT_CHARS} THEN snapshot
                ELSE lo || ':' || lo || ':' END AS snapshot,
           (SELECT (${counted})::int FROM buckets) AS total
      FROM reduced`;
  return { text, values: r.p.values };
}

/**
 * Per type, then per contract: quantities are exact sums rounded once; amounts are sums of
 * billed amounts (each charge's amount rounded to 3 decimals: docs/billing.md "Billed
 * amounts"); the rate or, when it changed, the effective rate of the exact sums.
 */
const CHARGE_COLUMNS = {
  quantity: (sum: string) => `round(${sum}, 3)::text AS quantity`,
  rate: (minRate: string, maxRate: string, amount: string, quantity: string) =>
    `CASE WHEN ${minRate} = ${maxRate} THEN ${minRate}::text
          ELSE round(${amount} / nullif(${quantity}, 0), 6)::text END AS rate`,
  amount: (billedSum: string) => `round(${billedSum}, 3)::text AS amount`,
};

/**
 * Charges of the page's contracts summed per type, and per contract (exact numeric sums).
 * A contract whose charge days all lie in [gte, lte] is read from billing_charge_totals
 * (its sums over all its days, one index probe); the others, and any contract without
 * totals, are summed from billing_charges over the range. Both give the same rows.
 */
export function contractChargesStatement(ids: number[], gte: number, lte: number): SqlStatement {
  const { quantity, rate, amount } = CHARGE_COLUMNS;
  const summed = `
      SELECT contract_id, type, min(day) AS first_day, max(day) AS last_day,
             ${quantity('sum(quantity)')}, min(unit) AS unit,
             ${rate('min(rate)', 'max(rate)', 'sum(amount)', 'sum(quantity)')},
             ${amount('sum(round(amount, 3))')}, count(DISTINCT day)::int AS days
        FROM billing_charges`;
  const perType = `GROUP BY GROUPING SETS ((contract_id, type), (contract_id))`;
  // A range shorter than a day holds at most one charge day: a contract's totals hold no
  // fewer rows than its charges there, so they are summed directly.
  if (lte - gte < DAY_SECONDS) {
    return {
      text: `${summed}
       WHERE contract_id = ANY($1::int[]) AND day >= $2 AND day <= $3
       ${perType}`,
      values: [ids, gte, lte],
    };
  }
  return {
    text: `
      WITH whole AS MATERIALIZED (
        SELECT * FROM billing_charge_totals
         WHERE contract_id = ANY($1::int[]) AND contract_first_day >= $2 AND contract_last_day <= $3)
      SELECT contract_id, type, first_day, last_day, ${quantity('quantity')}, unit,
             ${rate('min_rate', 'max_rate', 'amount', 'quantity')}, ${amount('billed')},
             NULL::int AS days
        FROM whole
      UNION ALL
      SELECT contract_id, NULL, min(first_day), max(last_day), ${quantity('sum(quantity)')},
             min(unit), ${rate('min(min_rate)', 'max(max_rate)', 'sum(amount)', 'sum(quantity)')},
             ${amount('sum(billed)')}, min(contract_days)
        FROM whole GROUP BY contract_id
      UNION ALL${summed}
       WHERE contract_id = ANY(ARRAY(SELECT unnest($1::int[]) EXCEPT SELECT contract_id FROM whole))
         AND day >= $2 AND day <= $3
       ${perType}`,
    values: [ids, gte, lte],
  };
}

/** Per wrapper: the sum of its contracts' billed amounts in range. O(days). */
export function wrapperAmountsStatement(
  ownerKey: number,
  sources: string[],
  gte: number,
  lte: number,
): SqlStatement {
  return {
    text: `
      SELECT bucket AS source, round(sum(billed), 3)::text AS amount
        FROM billing_report_days
       WHERE owner_key = $1 AND category = 'serverless' AND bucket = ANY($2::text[])
         AND day >= $3 AND day <= $4
       GROUP BY bucket`,
    values: [ownerKey, sources, gte, lte],
  };
}
