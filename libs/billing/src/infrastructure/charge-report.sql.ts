import { ChargeCategory, ChargeFilter, SortKey } from '../domain/charge-report';

/**
 * The SQL of the charges report, as plain text + parameters, so the repository and the
 * benchmark's SQL floor (bench/charges.bench.ts) run exactly the same statements.
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

/**
 * A contract belongs to the report when it has a charge with gte <= day <= lte: the
 * interval test on its charge-day summary is exact unless its charge days have holes,
 * where the EXISTS probe of the charges primary key decides.
 */
function matching(p: Params, userId: number, filter: ChargeFilter, snapshot: string): string {
  const gte = p.add(filter.gte);
  const lte = p.add(filter.lte);
  return `c.user_id = ${p.add(userId)} AND c.seq <= ${p.add(snapshot)}
      AND c.first_charge_day <= ${lte} AND c.last_charge_day >= ${gte}
      AND (NOT c.charge_days_gapped OR EXISTS (
        SELECT 1 FROM billing_charges ch
         WHERE ch.contract_id = c.id AND ch.day >= ${gte} AND ch.day <= ${lte}))`;
}

function categoryClause(p: Params, categories: ChargeCategory[] | null): string {
  return categories === null ? '' : `AND c.category = ANY(${p.add(categories)}::text[])`;
}

/** Strictly after the cursor; the redundant range bound lets the index start there. */
function keyset(p: Params, alias: string, after: SortKey | null, latestFirst: boolean): string {
  if (!after) return '';
  const value = p.add(after.value);
  const source = p.add(after.source);
  return latestFirst
    ? `AND ${alias}.end_ts <= ${value} AND (${alias}.end_ts < ${value} OR ${alias}.source > ${source})`
    : `AND ${alias}.start_ts >= ${value} AND (${alias}.start_ts > ${value} OR ${alias}.source > ${source})`;
}

function orderBy(alias: string, latestFirst: boolean): string {
  return latestFirst
    ? `ORDER BY ${alias}.end_ts DESC, ${alias}.source`
    : `ORDER BY ${alias}.start_ts, ${alias}.source`;
}

const CONTRACT_COLUMNS = `k.kind, k.label, k.template_id, k.endpoint_id, k.workergroup_id`;

/** Classes shown as contract rows in tree format, and whether wrappers are wanted. */
export function treeParts(categories: ChargeCategory[] | null): {
  plain: ChargeCategory[];
  wrappers: boolean;
} {
  const wanted = categories ?? ['instance', 'serverless', 'volume'];
  return {
    plain: wanted.filter((category) => category !== 'serverless'),
    wrappers: wanted.includes('serverless'),
  };
}

export function pageStatement(
  userId: number,
  filter: ChargeFilter,
  snapshot: string,
  after: SortKey | null,
  limit: number,
): SqlStatement {
  const p = new Params();
  if (filter.format === 'table') {
    // Keys come from an index-only scan; only the page's rows visit the heap.
    const text = `
      WITH keys AS (
        SELECT c.id, c.source, c.start_ts, c.end_ts FROM billing_contracts c
         WHERE ${matching(p, userId, filter, snapshot)}
           ${categoryClause(p, filter.categories)}
           ${keyset(p, 'c', after, filter.latestFirst)}
         ${orderBy('c', filter.latestFirst)}
         LIMIT ${p.add(limit)})
      SELECT 'contract' AS row_kind, c.id, c.source, c.start_ts, c.end_ts, NULL::int AS contracts,
             ${CONTRACT_COLUMNS}
        FROM keys c JOIN billing_contracts k ON k.id = c.id
       ${orderBy('c', filter.latestFirst)}`;
    return { text, values: p.values };
  }
  const parts = treeParts(filter.categories);
  const branches: string[] = [];
  let ctes = '';
  if (parts.plain.length > 0) {
    ctes += `plain AS (
        SELECT c.id, c.source, c.start_ts, c.end_ts FROM billing_contracts c
         WHERE ${matching(p, userId, filter, snapshot)}
           AND c.category = ANY(${p.add(parts.plain)}::text[])
           ${keyset(p, 'c', after, filter.latestFirst)}
         ${orderBy('c', filter.latestFirst)}
         LIMIT ${p.add(limit)})`;
    branches.push(
      `SELECT 'contract' AS row_kind, c.id, c.source, c.start_ts, c.end_ts, NULL::int AS contracts FROM plain c`,
    );
  }
  if (parts.wrappers) {
    // Wrappers are a grouped row set with the same sort key, paginated by the same keyset.
    ctes += `${ctes ? ',' : ''} wrappers AS (
        SELECT c.group_key AS source, min(c.start_ts) AS start_ts, max(c.end_ts) AS end_ts,
               count(*)::int AS contracts
          FROM billing_contracts c
         WHERE ${matching(p, userId, filter, snapshot)} AND c.category = 'serverless'
         GROUP BY c.group_key)`;
    branches.push(
      `SELECT 'wrapper' AS row_kind, NULL::int AS id, w.source, w.start_ts, w.end_ts, w.contracts
         FROM wrappers w
        WHERE true ${keyset(p, 'w', after, filter.latestFirst)}`,
    );
  }
  const text = `
    WITH ${ctes},
    page AS (
      SELECT * FROM (${branches.join(' UNION ALL ')}) e
       ${orderBy('e', filter.latestFirst)}
       LIMIT ${p.add(limit)})
    SELECT e.*, ${CONTRACT_COLUMNS}
      FROM page e LEFT JOIN billing_contracts k ON k.id = e.id
     ${orderBy('e', filter.latestFirst)}`;
  return { text, values: p.values };
}

export function totalStatement(
  userId: number,
  filter: ChargeFilter,
  snapshot: string,
): SqlStatement {
  const p = new Params();
  const where = `${matching(p, userId, filter, snapshot)} ${categoryClause(p, filter.categories)}`;
  // Tree: contract rows outside any wrapper, plus one per wrapper.
  const counted =
    filter.format === 'table'
      ? 'count(*)'
      : 'count(*) FILTER (WHERE c.group_key IS NULL) + count(DISTINCT c.group_key)';
  return {
    text: `SELECT (${counted})::int AS total FROM billing_contracts c WHERE ${where}`,
    values: p.values,
  };
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

export function wrapperAmountsStatement(
  userId: number,
  sources: string[],
  gte: number,
  lte: number,
): SqlStatement {
  return {
    text: `
      SELECT group_key AS source, round(sum(amount), 3)::text AS amount
        FROM billing_serverless_daily
       WHERE user_id = $1 AND group_key = ANY($2::text[]) AND day >= $3 AND day <= $4
       GROUP BY group_key`,
    values: [userId, sources, gte, lte],
  };
}

export const SNAPSHOT_SQL = `SELECT CASE WHEN is_called THEN last_value ELSE 0 END::text AS snapshot FROM billing_contract_seq`;
