/**
 * REFERENCE ONLY: a frozen copy of the charges report's statement builders as they were
 * before the running totals (libs/billing/.../charge-report.sql.ts at the 1767000100002
 * schema), kept so `npm run bench:charges` measures the old SQL floor beside the new one
 * (docs/performance.md "Reading the charges run"). The endpoint never runs these; do not
 * change them, so the two columns keep comparing the same thing.
 */
import {
  CHARGE_CATEGORIES,
  ChargeCategory,
  ChargeFilter,
  SortKey,
} from '@app/billing/domain/charge-report';

/**
 * The SQL of the charges report as the endpoint ran it before. Cost per page: the
 * head (page 1 only) is O(buckets x days of history); a page is O(limit) index entries
 * plus the non-matching ones whose sort key lies between matching ones, plus one index
 * probe per serverless wrapper of the user in tree format (docs/billing.md).
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
  user: string;
  gte: string;
  lte: string;
}

function refs(userId: number, filter: ChargeFilter): Refs {
  const p = new Params();
  return { p, user: p.add(userId), gte: p.add(filter.gte), lte: p.add(filter.lte) };
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
 * Over billing_report_days rows r of some buckets with day <= lte: the contracts whose
 * charged days span [gte, lte] (first charged day <= lte, last charged day >= gte).
 */
function spanned(r: Refs): string {
  return `coalesce(sum(r.starts), 0) - coalesce(sum(r.ends) FILTER (WHERE r.day < ${r.gte}), 0)`;
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
 * contracts that end after every match nor runs on through the user's older history.
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
  const days = `FROM billing_report_days r
         WHERE r.owner_key = ${r.user} AND r.day >= ${r.gte} AND r.day <= ${r.lte}
           AND r.category = ANY(${cats}::text[])`;
  return `SELECT c.id, c.source, c.${column} AS sort_ts FROM billing_contracts c
     WHERE c.owner_key = ${r.user}
       AND c.${column} >= (SELECT min(r.${lo}) ${days})
       AND c.${column} <= (SELECT max(r.${hi}) ${days})
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
  userId: number,
  filter: ChargeFilter,
  snapshot: string,
  after: SortKey | null,
  limit: number,
): SqlStatement {
  const r = refs(userId, filter);
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
         WHERE r.owner_key = ${r.user} AND r.category = 'serverless'
           AND r.day >= ${r.gte} AND r.day <= ${r.lte}
         GROUP BY r.bucket)`);
    ctes.push(`wrappers AS (
        SELECT g.bucket AS source, w.sort_ts FROM groups g
         CROSS JOIN LATERAL (
           SELECT c.${column} AS sort_ts FROM billing_contracts c
            WHERE c.owner_key = ${r.user} AND c.group_key = g.bucket
              AND c.${column} >= g.${glo} AND c.${column} <= g.${ghi}
              AND ${visible(snap)} AND ${charged(r)}
            ORDER BY c.${column} ${dir}
            LIMIT 1) w
         WHERE true ${keyset(r, 'w.sort_ts', 'g.bucket', after, filter.latestFirst)})`);
    branches.push(`SELECT 'wrapper' AS row_kind, NULL::int AS id, source, sort_ts FROM wrappers`);
  }
  // A wrapper's other bound (earliest start or latest end) is probed only for the page's
  // wrappers; its contract count is a sum over the summary's days (as in headStatement).
  const other = walk(!filter.latestFirst);
  const wrapperColumns = parts.wrappers
    ? `SELECT (SELECT c.${other.column} FROM billing_contracts c, groups g
                 WHERE g.bucket = e.source AND c.owner_key = ${r.user} AND c.group_key = e.source
                   AND c.${other.column} >= g.${other.glo} AND c.${other.column} <= g.${other.ghi}
                   AND ${visible(snap)} AND ${charged(r)}
                 ORDER BY c.${other.column} ${other.dir}
                 LIMIT 1) AS other_ts,
               ((SELECT ${spanned(r)} FROM billing_report_days r
                  WHERE r.owner_key = ${r.user} AND r.category = 'serverless' AND r.bucket = e.source
                    AND r.day <= ${r.lte})
                - (SELECT count(*) FROM billing_contracts c
                    WHERE c.owner_key = ${r.user} AND c.group_key = e.source AND ${gappedMisses(r)})
               )::int AS contracts
         WHERE e.row_kind = 'wrapper'`
    : `SELECT NULL::bigint AS other_ts, NULL::int AS contracts`;
  const text = `
    WITH ${ctes.join(',\n')},
    page AS (
      SELECT * FROM (${branches.join(' UNION ALL ')}) e
       ${order}
       LIMIT ${n})
    SELECT e.row_kind, e.id, e.source,
           coalesce(k.start_ts, ${filter.latestFirst ? 'o.other_ts' : 'e.sort_ts'}) AS start_ts,
           coalesce(k.end_ts, ${filter.latestFirst ? 'e.sort_ts' : 'o.other_ts'}) AS end_ts,
           o.contracts, ${CONTRACT_COLUMNS}
      FROM page e
      LEFT JOIN billing_contracts k ON k.id = e.id
      LEFT JOIN LATERAL (${wrapperColumns}) o ON true
     ${order}`;
  return { text, values: r.p.values };
}

/** Longer snapshots (hundreds of transactions in flight) fall back to their xmin. */
const MAX_SNAPSHOT_CHARS = 2048;

/**
 * The head of a walk, run for its first page. Columns:
 *
 * - `snapshot`: the snapshot this statement runs in, reduced to what decides the
 *   visibility of this user's contracts: with M the newest created_xid among them, every
 *   contract with xid <= M committed in it is visible, xids above M are not (a contract
 *   written later gets a larger xid), and in-flight xids up to M stay invisible. Later
 *   pages see exactly the contracts committed in it, and two walks over unchanged data
 *   get the same snapshot (and so the same tokens).
 * - `total`, counted in that same snapshot: not a count over contracts but a sum over
 *   billing_report_days: per bucket, contracts with first charged day <= lte minus those
 *   with last charged day < gte, less the gapped contracts with no charge in range. In
 *   tree format every serverless bucket with at least one such contract is one wrapper.
 */
export function headStatement(userId: number, filter: ChargeFilter): SqlStatement {
  const r = refs(userId, filter);
  const cats = r.p.add(filter.categories ?? CHARGE_CATEGORIES);
  const counted =
    filter.format === 'table'
      ? 'coalesce(sum(n), 0)'
      : `coalesce(sum(n) FILTER (WHERE category <> 'serverless'), 0)
         + count(*) FILTER (WHERE category = 'serverless' AND n > 0)`;
  const text = `
    WITH spans AS (
      SELECT r.category, r.bucket, ${spanned(r)} AS n
        FROM billing_report_days r
       WHERE r.owner_key = ${r.user} AND r.category = ANY(${cats}::text[]) AND r.day <= ${r.lte}
       GROUP BY r.category, r.bucket),
    misses AS (
      SELECT coalesce(c.group_key, c.category) AS bucket, count(*) AS n
        FROM billing_contracts c
       WHERE c.owner_key = ${r.user} AND c.category = ANY(${cats}::text[]) AND ${gappedMisses(r)}
       GROUP BY 1),
    buckets AS (
      SELECT s.category, s.n - coalesce(m.n, 0) AS n FROM spans s LEFT JOIN misses m USING (bucket)),
    current AS (SELECT pg_current_snapshot() AS s),
    bounds AS (
      SELECT least(pg_snapshot_xmin(current.s)::text::bigint, top.m + 1) AS lo, top.m + 1 AS hi
        FROM current,
             (SELECT coalesce(max(c.created_xid)::text::bigint, 0) AS m
                FROM billing_contracts c WHERE c.owner_key = ${r.user}) top),
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

/** Charges of the page's contracts summed per type, and per contract (exact numeric sums). */
export function contractChargesStatement(ids: number[], gte: number, lte: number): SqlStatement {
  return {
    text: `
      SELECT contract_id, type, min(day) AS first_day, max(day) AS last_day,
             round(sum(quantity), 3)::text AS quantity, min(unit) AS unit,
             CASE WHEN min(rate) = max(rate) THEN min(rate)::text
                  ELSE round(sum(amount) / nullif(sum(quantity), 0), 6)::text END AS rate,
             round(sum(amount), 3)::text AS amount,
             count(DISTINCT day)::int AS days
        FROM billing_charges
       WHERE contract_id = ANY($1::int[]) AND day >= $2 AND day <= $3
       GROUP BY GROUPING SETS ((contract_id, type), (contract_id))`,
    values: [ids, gte, lte],
  };
}

/** Per wrapper: the exact sum of its contracts' charges in range, rounded once. O(days). */
export function wrapperAmountsStatement(
  userId: number,
  sources: string[],
  gte: number,
  lte: number,
): SqlStatement {
  return {
    text: `
      SELECT bucket AS source, round(sum(amount), 3)::text AS amount
        FROM billing_report_days
       WHERE owner_key = $1 AND category = 'serverless' AND bucket = ANY($2::text[])
         AND day >= $3 AND day <= $4
       GROUP BY bucket`,
    values: [userId, sources, gte, lte],
  };
}
