/**
 * The floor the charges endpoint is compared with in `npm run bench`: plain `node:http` +
 * `pg`, no framework, no auth, no validation, no rate limit, no logging. It serves page 1
 * of the table format for one user (BASELINE_USER_ID) with the product's own statements
 * (charge-report.sql) in the same rounds as the use case, and the same JSON entries, so
 * the ratio measures everything the product adds around the SQL.
 *
 * Environment: DATABASE_URL, BASELINE_USER_ID, PORT (0: any), DATABASE_POOL_MAX (20, the
 * api's default). Prints `{"msg": "baseline listening", "port": N}` once it listens.
 */
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { Pool } from 'pg';
import { contractEntry } from '@app/billing/domain/charge-entries';
import {
  ChargeFilter,
  ContractChargeTotals,
  ContractEntryRow,
  ContractKind,
} from '@app/billing/domain/charge-report';
import {
  contractChargesStatement,
  headStatement,
  pageStatement,
} from '@app/billing/infrastructure/persistence/charge-report.sql';
import { presentChargeEntry } from '@app/billing/http/charge-page.presenter';
import {
  ChargeSqlRow,
  toContractTotals,
} from '@app/billing/infrastructure/persistence/charge-report.mapper';

const userId = Number(process.env.BASELINE_USER_ID);
if (!Number.isInteger(userId) || userId < 1) {
  console.error('BASELINE_USER_ID must be a user id');
  process.exit(1);
}
const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_MAX ?? 20),
});

interface PageRow {
  id: number;
  source: string;
  start_ts: string;
  end_ts: string;
  kind: ContractKind;
  label: string | null;
  template_id: number | null;
  endpoint_id: number | null;
  workergroup_id: number | null;
}

function contractRow(row: PageRow): ContractEntryRow {
  return {
    rowKind: 'contract',
    id: row.id,
    kind: row.kind,
    source: row.source,
    start: Number(row.start_ts),
    end: Number(row.end_ts),
    label: row.label,
    templateId: row.template_id,
    endpointId: row.endpoint_id,
    workergroupId: row.workergroup_id,
  };
}

async function page(filter: ChargeFilter, limit: number): Promise<Record<string, unknown>> {
  const headSql = headStatement(userId, filter);
  const head = (await pool.query<{ snapshot: string; total: number }>(headSql.text, headSql.values))
    .rows[0];
  const snapshot = head.snapshot;
  const pageSql = pageStatement(userId, filter, snapshot, null, limit + 1);
  const pageResult = await pool.query<PageRow>(pageSql.text, pageSql.values);
  const rows = pageResult.rows.slice(0, limit).map(contractRow);
  const chargesSql = contractChargesStatement(
    rows.map((row) => row.id),
    filter.gte,
    filter.lte,
  );
  const totals = rows.length
    ? toContractTotals((await pool.query<ChargeSqlRow>(chargesSql.text, chargesSql.values)).rows)
    : new Map<number, ContractChargeTotals>();
  const results = rows.map((row) => presentChargeEntry(contractEntry(row, totals.get(row.id))));
  const last = rows[rows.length - 1];
  return {
    success: true,
    count: results.length,
    total: head.total,
    // Unsigned: the baseline serves page 1 only; a token of similar size keeps bodies alike.
    next_token:
      pageResult.rows.length > limit && last
        ? Buffer.from(JSON.stringify({ v: last.end, s: last.source, n: snapshot })).toString(
            'base64url',
          )
        : null,
    results,
  };
}

/** No validation on purpose: the query is trusted to be the benchmark's own. */
function filterOf(url: URL): { filter: ChargeFilter; limit: number } {
  const day = (
    JSON.parse(url.searchParams.get('select_filters') ?? '{}') as {
      day: { gte: number; lte: number };
    }
  ).day;
  return {
    filter: {
      gte: day.gte,
      lte: day.lte,
      categories: null,
      format: 'table',
      latestFirst: url.searchParams.get('latest_first') !== 'false',
    },
    limit: Math.min(500, Number(url.searchParams.get('limit') ?? 100)),
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (req.method !== 'GET' || !/^\/api\/v0\/charges\/?$/.test(url.pathname))
    return send(res, 404, { success: false, error: 'not_found', msg: 'Not found' });
  let query: { filter: ChargeFilter; limit: number };
  try {
    query = filterOf(url);
  } catch {
    return send(res, 400, { success: false, msg: 'bad query' });
  }
  page(query.filter, query.limit).then(
    (body) => send(res, 200, body),
    (error: Error) => send(res, 500, { success: false, msg: error.message }),
  );
});
server.keepAliveTimeout = 65_000;

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ msg: 'baseline listening', port })}\n`);
});

function shutdown(): void {
  server.close(() => void pool.end().then(() => process.exit(0)));
  server.closeAllConnections();
}
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
