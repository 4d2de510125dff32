import { Pool } from 'pg';
import { ChargeFilter, SortKey } from '@app/billing/domain/charge-report';
import {
  contractChargesStatement,
  headStatement,
  onePageStatement,
  pageStatement,
  wrapperAmountsStatement,
} from '@app/billing/infrastructure/charge-report.sql';

export interface FloorRequest {
  userId: number;
  filter: ChargeFilter;
  limit: number;
  /** null on page 1: the head (snapshot and total) is read first, as the endpoint does. */
  cursor: { after: SortKey; snapshot: string } | null;
}

async function headSnapshot(pool: Pool, request: FloorRequest): Promise<string> {
  const head = headStatement(request.userId, request.filter);
  return (await pool.query(head.text, head.values)).rows[0].snapshot as string;
}

/**
 * One report page made of exactly the endpoint's statement: onePageStatement, one round
 * trip (head on page 1, page, charges and amounts together). No HTTP, no Nest, no
 * presentation: the floor the endpoint cannot beat.
 */
export async function floorPage(pool: Pool, request: FloorRequest): Promise<number> {
  const { userId, filter, limit, cursor } = request;
  const statement = onePageStatement(userId, filter, cursor, limit);
  const result = await pool.query(statement.text, statement.values);
  return Math.min(limit, (result.rows[0].rows as unknown[]).length);
}

/**
 * The reference: the same page from the statements the endpoint ran before, in its rounds
 * then: [head (snapshot and total) on page 1] -> page -> contract charges + wrapper
 * amounts in parallel.
 */
export async function referenceFloorPage(pool: Pool, request: FloorRequest): Promise<number> {
  const { userId, filter, limit, cursor } = request;
  const snapshot = cursor?.snapshot ?? (await headSnapshot(pool, request));
  const page = pageStatement(userId, filter, snapshot, cursor?.after ?? null, limit + 1);
  const pageResult = await pool.query(page.text, page.values);
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
    follow.push(pool.query(statement.text, statement.values));
  }
  if (sources.length) {
    const statement = wrapperAmountsStatement(userId, sources, filter.gte, filter.lte);
    follow.push(pool.query(statement.text, statement.values));
  }
  await Promise.all(follow);
  return rows.length;
}

/** EXPLAIN (ANALYZE, BUFFERS) of the endpoint's one statement for a page. */
export async function explainFloor(pool: Pool, request: FloorRequest): Promise<string> {
  const statement = onePageStatement(request.userId, request.filter, request.cursor, request.limit);
  const result = await pool.query(
    `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${statement.text}`,
    statement.values,
  );
  return result.rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
}
