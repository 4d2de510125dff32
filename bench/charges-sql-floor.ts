import { Pool } from 'pg';
import { statementConfig } from '@app/platform';
import { ChargeFilter, SortKey } from '@app/billing/domain/charge-report';
import * as current from '@app/billing/infrastructure/persistence/charge-report.sql';
import * as reference from './charges-reference.sql';

/** The four statement builders of a report page, and whether they run as named statements. */
export interface ReportStatements {
  headStatement: typeof current.headStatement;
  pageStatement: typeof current.pageStatement;
  contractChargesStatement: typeof current.contractChargesStatement;
  wrapperAmountsStatement: typeof current.wrapperAmountsStatement;
  prepare: boolean;
}

/**
 * The endpoint's statements, named as the api names them with DATABASE_PREPARED_STATEMENTS
 * (`prepare`), so the floor pays the planning the endpoint pays.
 */
export function endpointStatements(prepare: boolean): ReportStatements {
  return { ...current, prepare };
}

/** The frozen statements they replaced (the reference column), run as the endpoint ran them. */
export const REFERENCE_STATEMENTS: ReportStatements = { ...reference, prepare: false };

function run(pool: Pool, { prepare }: ReportStatements, { text, values }: current.SqlStatement) {
  return pool.query(statementConfig(text, values, prepare));
}

export interface FloorRequest {
  userId: number;
  filter: ChargeFilter;
  limit: number;
  /** null on page 1: the head (snapshot and total) is read first, as the endpoint does. */
  cursor: { after: SortKey; snapshot: string } | null;
}

async function headSnapshot(
  pool: Pool,
  request: FloorRequest,
  statements: ReportStatements,
): Promise<string> {
  const head = statements.headStatement(request.userId, request.filter);
  return (await run(pool, statements, head)).rows[0].snapshot as string;
}

/**
 * One report page made of exactly the endpoint's statements, in the same rounds:
 * [head (snapshot and total) on page 1] -> page -> contract charges + wrapper amounts
 * in parallel. No HTTP, no Nest, no JSON: the floor the endpoint cannot beat. With
 * REFERENCE_STATEMENTS, the same rounds of the statements before the running totals.
 */
export async function floorPage(
  pool: Pool,
  request: FloorRequest,
  statements: ReportStatements,
): Promise<number> {
  const { pageStatement, contractChargesStatement, wrapperAmountsStatement } = statements;
  const { userId, filter, limit, cursor } = request;
  const snapshot = cursor?.snapshot ?? (await headSnapshot(pool, request, statements));
  const page = pageStatement(userId, filter, snapshot, cursor?.after ?? null, limit + 1);
  const pageResult = await run(pool, statements, page);
  const rows = pageResult.rows.slice(0, limit) as Array<{
    row_kind: string;
    id: number;
    source: string;
  }>;
  const ids = rows.filter((row) => row.row_kind === 'contract').map((row) => row.id);
  const sources = rows.filter((row) => row.row_kind === 'wrapper').map((row) => row.source);
  const follow: Array<Promise<unknown>> = [];
  if (ids.length) {
    const statement = contractChargesStatement(ids, filter.gte, filter.lte);
    follow.push(run(pool, statements, statement));
  }
  if (sources.length) {
    const statement = wrapperAmountsStatement(userId, sources, filter.gte, filter.lte);
    follow.push(run(pool, statements, statement));
  }
  await Promise.all(follow);
  return rows.length;
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the statements of one page: the head (page 1 only, as the
 * endpoint runs it), the page, and the charges of the page's contracts.
 */
export async function explainFloor(pool: Pool, request: FloorRequest): Promise<string> {
  const endpoint = endpointStatements(false);
  const { headStatement, pageStatement, contractChargesStatement } = endpoint;
  const snapshot = request.cursor?.snapshot ?? (await headSnapshot(pool, request, endpoint));
  const page = pageStatement(
    request.userId,
    request.filter,
    snapshot,
    request.cursor?.after ?? null,
    request.limit + 1,
  );
  const ids = (await pool.query(page.text, page.values)).rows
    .slice(0, request.limit)
    .filter((row: { row_kind: string }) => row.row_kind === 'contract')
    .map((row: { id: number }) => row.id);
  const statements: Array<[string, { text: string; values: unknown[] }]> = [];
  if (!request.cursor) statements.push(['head', headStatement(request.userId, request.filter)]);
  statements.push(['page', page]);
  if (ids.length)
    statements.push([
      `charges of the page's ${ids.length} contracts`,
      contractChargesStatement(ids, request.filter.gte, request.filter.lte),
    ]);
  const out: string[] = [];
  for (const [name, statement] of statements) {
    const result = await pool.query(
      `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${statement.text}`,
      statement.values,
    );
    out.push(`-- ${name}`, ...result.rows.map((row: Record<string, string>) => row['QUERY PLAN']));
  }
  return out.join('\n');
}
