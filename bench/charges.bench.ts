/**
 * `npm run bench:charges`: the charges report on a seed:demo dataset (1,000,000 contracts,
 * ~10,000,000 daily charges, 10,000 users, a heavy user with ~200,000 contracts).
 * For the heavy user it measures, in one run and in alternating slices, four sides of
 * every page: the reference statements and the endpoint's own statements on pg (the SQL
 * floor, bench/charges-sql-floor.ts), the endpoint over HTTP (a spawned api,
 * RATE_LIMITS=off) and the same page from bare Node (bench/baseline-charges-server.ts: the
 * product's own code without the framework, checked to answer the same bytes first), at
 * concurrency 1 and 16. Then, at concurrency 1, the first pages of the heavy user against
 * those of the demo user whose contract count is closest to 100 (the cost must stay flat
 * as history grows). Prints the tables and targets and writes them into
 * docs/performance.md (its block between the charges-bench markers). Not part of `npm test`.
 *
 * Environment (all optional):
 *   BENCH_DATABASE_URL  postgres://postgres@127.0.0.1:5432/gpumarket_bench (seeded when the
 *                       dataset is missing or smaller than above: 5 to 15 minutes, by machine)
 *   BENCH_REDIS_URL     redis://127.0.0.1:6379/10 (the api needs one; nothing is flushed)
 *   BENCH_SECONDS       5 seconds per measurement and side
 *   BENCH_DEADLINE_MINUTES  30, after which the run stops whatever it is doing
 *   BENCH_DOCS          docs/performance.md under the working directory ("-" to skip writing)
 *   BENCH_PREPARED_STATEMENTS  true: the api's DATABASE_PREPARED_STATEMENTS, which the floor follows
 */
import { Agent } from 'node:http';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { Pool } from 'pg';
import { ChargeFilter, ChargeFormat } from '@app/billing/domain/charge-report';
import { loadPlatformConfig, Environment } from '@app/platform';
import {
  assertSameBytes,
  httpFetcher,
  httpGetter,
  Measurement,
  measureLoop,
  measureSides,
} from './charges-measure';
import {
  endpointStatements,
  explainFloor,
  floorPage,
  FloorRequest,
  REFERENCE_STATEMENTS,
  ReportStatements,
} from './charges-sql-floor';
import { writeMarkdown } from './docs';
import { chargesPagePath } from './public-client-paths';
import {
  assertLoopback,
  cpuMs,
  deadline,
  DIST,
  loadAverage,
  log,
  machine,
  runManage,
  startServer,
  stopAll,
  benchServerEnv,
  Server,
} from './processes';

const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/gpumarket_bench';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/10';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const DEADLINE_MINUTES = Number(process.env.BENCH_DEADLINE_MINUTES ?? 30);
const DOCS = process.env.BENCH_DOCS ?? join(process.cwd(), 'docs', 'performance.md');
const PREPARED = (process.env.BENCH_PREPARED_STATEMENTS ?? 'true') !== 'false';
/** The dataset size docs/performance.md reports on; a smaller dataset is reseeded. */
const SEED = { users: 10_000, contracts: 1_000_000, days: 120 };
const MINIMUM = { charges: 10_000_000, heavyContracts: 200_000 };
const HEAVY_EMAIL = 'demo-1@demo.gpumarket.test';
/** The history of the user the heavy one is compared with: about a hundred contracts. */
const SMALL_HISTORY = 100;
const DAY = 86_400;
const PAGE_SIZE = 100;
const DEEP_PAGE = 1000;
const CONCURRENCY = [1, 16];

interface Dataset {
  heavyUserId: number;
  lastDay: number;
  users: number;
  contracts: number;
  charges: number;
  heavyContracts: number;
  seeded: boolean;
}

async function countDataset(pool: Pool): Promise<Dataset | undefined> {
  const { rows } = await pool
    .query<{
      heavy: number | null;
      users: number;
      contracts: number;
      charges: string;
      heavy_contracts: number;
      last_day: string | null;
    }>(
      `SELECT h.id AS heavy,
              (SELECT count(*) FROM users WHERE email LIKE 'demo-%@demo.gpumarket.test')::int AS users,
              (SELECT count(*) FROM billing_contracts)::int AS contracts,
              (SELECT count(*) FROM billing_charges)::bigint AS charges,
              (SELECT count(*) FROM billing_contracts c WHERE c.user_id = h.id)::int AS heavy_contracts,
              (SELECT max(last_charge_day) FROM billing_contracts)::bigint AS last_day
         FROM (SELECT (SELECT id FROM users WHERE email = $1) AS id) h`,
      [HEAVY_EMAIL],
    )
    .catch(() => ({ rows: [] }));
  const row = rows[0];
  if (!row || row.heavy === null || row.last_day === null) return undefined;
  return {
    heavyUserId: row.heavy,
    lastDay: Number(row.last_day),
    users: row.users,
    contracts: row.contracts,
    charges: Number(row.charges),
    heavyContracts: row.heavy_contracts,
    seeded: false,
  };
}

function bigEnough(data: Dataset | undefined): data is Dataset {
  return (
    data !== undefined &&
    data.users >= SEED.users &&
    data.contracts >= SEED.contracts &&
    data.charges >= MINIMUM.charges &&
    data.heavyContracts >= MINIMUM.heavyContracts
  );
}

/** Seeds through `manage seed:demo` unless the database already holds the dataset. */
async function ensureDataset(pool: Pool, env: NodeJS.ProcessEnv): Promise<Dataset> {
  const present = await countDataset(pool);
  if (bigEnough(present)) {
    log(`dataset present: ${JSON.stringify(present)}`);
    return present;
  }
  log(
    `dataset missing or too small (${JSON.stringify(present)}): seeding, 5 to 15 minutes by machine`,
  );
  const summary = await runManage(
    [
      'seed:demo',
      '--users',
      String(SEED.users),
      '--contracts',
      String(SEED.contracts),
      '--days',
      String(SEED.days),
    ],
    env,
    30 * 60_000,
  );
  log(`seeded: ${JSON.stringify(summary)}`);
  const seeded = await countDataset(pool);
  if (!bigEnough(seeded)) throw new Error(`seed:demo left ${JSON.stringify(seeded)}`);
  return { ...seeded, seeded: true };
}

/** The demo user whose history is compared with the heavy user's. */
interface SmallUser {
  userId: number;
  contracts: number;
}

/**
 * The demo user owning the number of contracts closest to SMALL_HISTORY (lowest id on a
 * tie), counted by owner as the report counts them.
 */
async function findSmallUser(pool: Pool): Promise<SmallUser> {
  const { rows } = await pool.query<{ id: number; contracts: number }>(
    `SELECT u.id, n.contracts
       FROM (SELECT owner_key, count(*)::int AS contracts
               FROM billing_contracts WHERE owner_key > 0 GROUP BY owner_key) n
       JOIN users u ON u.id = n.owner_key
      WHERE u.email LIKE 'demo-%@demo.gpumarket.test'
      ORDER BY abs(n.contracts - $1), u.id
      LIMIT 1`,
    [SMALL_HISTORY],
  );
  if (!rows[0]) throw new Error('no demo user owns any contract');
  return { userId: rows[0].id, contracts: rows[0].contracts };
}

/** An API key of `userId`, made the way an operator makes one (`manage apikey:create`). */
async function createApiKey(userId: number, env: NodeJS.ProcessEnv): Promise<string> {
  const created = await runManage(['apikey:create', '--user', String(userId)], env);
  return created.api_key as string;
}

interface Scenario {
  name: string;
  range: string;
  format: ChargeFormat;
  page: number;
  limit: number;
  filter: ChargeFilter;
  /** Path and query of the page, the same on the api and on bare Node. */
  path: string;
  floor: FloorRequest;
}

interface Row {
  scenario: Scenario;
  /** Size of the page's JSON body, its entries and their items: what the api presents. */
  bytes: number;
  entries: number;
  items: number;
  /** The same rounds with the frozen statements of bench/charges-reference.sql.ts. */
  ref: Record<number, Measurement>;
  sql: Record<number, Measurement>;
  http: Record<number, Measurement>;
  /** The same page from bare Node (bench/baseline-charges-server.ts). */
  bare: Record<number, Measurement>;
  /** CPU time of the api process per HTTP request (ms), over the paired measurement. */
  apiCpu: Record<number, number>;
  /** CPU time of the bare Node process per request (ms), over the same measurement. */
  bareCpu: Record<number, number>;
}

/** A first page of the heavy user against the same page of the small user (HTTP, c1). */
interface HistoryRow {
  scenario: Scenario;
  heavy: Measurement;
  small: Measurement;
  /** Entries on the small user's page: a short history also fills fewer rows. */
  smallEntries: number;
  /** The heavy user's page at the small page's number of entries, when that is fewer. */
  heavySameSize?: Measurement;
}

function chargesPath(filter: ChargeFilter, limit: number, token: string | null): string {
  return chargesPagePath({ ...filter, limit, afterToken: token });
}

function cursorOf(token: string): { after: { value: number; source: string }; snapshot: string } {
  // White-box: the bench reads its own signed cursor to run the floor from the same position.
  const payload = JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8'));
  return { after: { value: payload.v, source: payload.s }, snapshot: payload.n };
}

const fmt = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : '-');
const mark = (met: boolean) => (met ? 'met' : '**MISSED**');

function renderTable(rows: Row[], c: number): string {
  const lines = [
    `| Scenario (concurrency ${c}) | limit | entries / items | body KiB | ref SQL p50 | SQL p50 | SQL / ref | HTTP p50 | ratio | SQL p99 | HTTP p99 | SQL req/s | HTTP req/s | api CPU ms/req | bare p50 | bare req/s | bare CPU ms/req |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { scenario, bytes, entries, items, ref, sql, http, apiCpu, bare, bareCpu } of rows) {
    const cells = [
      scenario.name,
      String(scenario.limit),
      `${entries} / ${items}`,
      (bytes / 1024).toFixed(1),
      fmt(ref[c].p50),
      fmt(sql[c].p50),
      fmt(sql[c].p50 / ref[c].p50),
      fmt(http[c].p50),
      fmt(http[c].p50 / sql[c].p50),
      fmt(sql[c].p99),
      fmt(http[c].p99),
      sql[c].rps.toFixed(0),
      http[c].rps.toFixed(0),
      fmt(apiCpu[c]),
      fmt(bare[c].p50),
      bare[c].rps.toFixed(0),
      fmt(bareCpu[c]),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

const scenarioLabel = (scenario: Scenario) => `${scenario.name} (limit ${scenario.limit})`;

/** The endpoint against bare Node: latency alone, throughput under load, CPU per request. */
interface BareRatios {
  p50: number;
  rps: number;
}

function bareRatios(row: Row): BareRatios {
  return {
    p50: row.http[1].p50 / row.bare[1].p50,
    rps: row.http[16].rps / row.bare[16].rps,
  };
}

/** What the framework may cost: at most 15 % on latency alone, 15 % of throughput at c16. */
const BARE_TARGET = { p50: 1.15, rps: 0.85 };

const BARE_COMPARISON_TITLE = 'Endpoint vs bare node:';

/** One line per scenario, under BARE_COMPARISON_TITLE. */
function bareComparison(rows: Row[]): string[] {
  return rows.map((row) => {
    const ratio = bareRatios(row);
    return (
      `- ${scenarioLabel(row.scenario)}: c1 p50 ${fmt(ratio.p50)} x; c16 req/s ${fmt(ratio.rps)} x; ` +
      `CPU ms/req ${fmt(row.apiCpu[16])} vs ${fmt(row.bareCpu[16])}`
    );
  });
}

function bareChecks(rows: Row[]): string[] {
  return [
    `Endpoint vs bare node (c1 p50 <= ${BARE_TARGET.p50} x, c16 req/s >= ${BARE_TARGET.rps} x):`,
    '',
    ...rows.map((row) => {
      const ratio = bareRatios(row);
      return (
        `- ${scenarioLabel(row.scenario)}: c1 p50 ${fmt(ratio.p50)} x ${mark(ratio.p50 <= BARE_TARGET.p50)}; ` +
        `c16 req/s ${fmt(ratio.rps)} x ${mark(ratio.rps >= BARE_TARGET.rps)}`
      );
    }),
  ];
}

/** How much dearer a first page may be for a long history than for a short one. */
const HISTORY_TARGET = 1.5;

function historyChecks(
  history: HistoryRow[],
  heavyContracts: number,
  smallUser: SmallUser,
): string[] {
  return [
    `Cost flat as history grows: first page HTTP p50 at c1 of the heavy user ` +
      `(${heavyContracts.toLocaleString('en')} contracts) over that of user ${smallUser.userId} ` +
      `(${smallUser.contracts} contracts; its pages below hold ` +
      `${history.map((row) => row.smallEntries).join(', ')} entries, the heavy user's ${PAGE_SIZE}), ` +
      `same run, alternating slices, <= ${HISTORY_TARGET} x:`,
    '',
    ...history.map(({ scenario, heavy, small, smallEntries, heavySameSize }) => {
      const ratio = heavy.p50 / small.p50;
      const sameSize = heavySameSize
        ? `; the heavy user's page of ${smallEntries} entries ${heavySameSize.p50.toFixed(1)} ms = ` +
          `${fmt(heavySameSize.p50 / small.p50)} x`
        : '';
      return (
        `- ${scenario.name}: heavy ${heavy.p50.toFixed(1)} ms / small ${small.p50.toFixed(1)} ms = ` +
        `${fmt(ratio)} x ${mark(ratio <= HISTORY_TARGET)}${sameSize}`
      );
    }),
  ];
}

/** The endpoint's allowance over its own SQL: tighter alone than under concurrency. */
const FLOOR_RATIO_TARGET = (concurrency: number) => (concurrency === 1 ? 1.3 : 1.5);

function targetChecks(rows: Row[]): string[] {
  const checks: string[] = [
    'Endpoint p50 <= 1.3 x its SQL floor at c1, <= 1.5 x at higher concurrency:',
    '',
  ];
  for (const row of rows) {
    const ratios = CONCURRENCY.map((c) => {
      const ratio = row.http[c].p50 / row.sql[c].p50;
      return `c${c} ${fmt(ratio)} ${mark(ratio <= FLOOR_RATIO_TARGET(c))}`;
    });
    checks.push(`- ${row.scenario.name} (limit ${row.scenario.limit}): ${ratios.join('; ')}`);
  }
  checks.push('', 'Page 1,000 p50 <= 1.2 x page 1 p50 (HTTP, same limit):', '');
  for (const deep of rows.filter((row) => row.scenario.page === DEEP_PAGE)) {
    const first = rows.find(
      (row) =>
        row.scenario.page === 1 &&
        row.scenario.range === deep.scenario.range &&
        row.scenario.format === deep.scenario.format &&
        row.scenario.limit === deep.scenario.limit,
    )!;
    const ratios = CONCURRENCY.map((c) => {
      const ratio = deep.http[c].p50 / first.http[c].p50;
      return `c${c} ${fmt(ratio)} ${mark(ratio <= 1.2)}`;
    });
    checks.push(
      `- ${deep.scenario.range}, ${deep.scenario.format} (limit ${deep.scenario.limit}): ${ratios.join('; ')}`,
    );
  }
  checks.push(
    '',
    'The floor lower: 90-day page 1 SQL p50 at c1 <= 0.5 x the reference statements (same run):',
    '',
  );
  for (const row of rows.filter(
    (r) =>
      r.scenario.range === '90 days' && r.scenario.page === 1 && r.scenario.limit === PAGE_SIZE,
  )) {
    const ratio = row.sql[1].p50 / row.ref[1].p50;
    checks.push(
      `- 90 days, ${row.scenario.format}: ${fmt(row.sql[1].p50)} ms against ${fmt(row.ref[1].p50)} ms, ${fmt(ratio)} ${mark(ratio <= 0.5)}`,
    );
  }
  checks.push('', '90-day first page p99 < 100 ms (HTTP; the SQL floor alone in brackets):', '');
  for (const row of rows.filter(
    (r) =>
      r.scenario.range === '90 days' && r.scenario.page === 1 && r.scenario.limit === PAGE_SIZE,
  )) {
    const values = CONCURRENCY.map((c) => {
      const p99 = row.http[c].p99;
      return `c${c} ${fmt(p99)} ms (SQL ${fmt(row.sql[c].p99)} ms) ${mark(p99 < 100)}`;
    });
    checks.push(`- 90 days, ${row.scenario.format}: ${values.join('; ')}`);
  }
  return checks;
}

async function writeDocs(section: string): Promise<void> {
  const start = '<!-- charges-bench:start -->';
  const end = '<!-- charges-bench:end -->';
  let text = await readFile(DOCS, 'utf8').catch(() => '# Performance\n\n## Charges report\n\n');
  const block = `${start}\n${section}\n${end}`;
  if (text.includes(start) && text.includes(end)) {
    text = text.slice(0, text.indexOf(start)) + block + text.slice(text.indexOf(end) + end.length);
  } else {
    text = `${text.trimEnd()}\n\n${block}\n`;
  }
  await writeMarkdown(DOCS, text);
}

/** The servers and clients every measurement of a page uses. */
interface Sides {
  pool: Pool;
  endpoint: ReportStatements;
  api: Server;
  bare: Server;
  /** A keep-alive GET with the heavy user's key, resolving with the raw body. */
  fetchBody: (url: string) => Promise<Buffer>;
}

/** Bare Node with the api's environment and pool size: only the framework differs. */
function startBareNode(env: NodeJS.ProcessEnv): Promise<Server> {
  const apiPoolMax = loadPlatformConfig(new Environment(env)).database.poolMax;
  return startServer(
    'bare node',
    join(DIST, 'bench/baseline-charges-server.js'),
    // Empty BASELINE_USER_ID: every request must present its key, as at the api.
    { ...env, DATABASE_POOL_MAX: String(apiPoolMax), BASELINE_USER_ID: '' },
    'baseline listening',
  );
}

/** The api's page, once bare Node is seen to answer the same request with the same bytes. */
async function samePageOnBoth(sides: Sides, path: string, what: string): Promise<Buffer> {
  const fromApi = await sides.fetchBody(`${sides.api.url}${path}`);
  const fromBare = await sides.fetchBody(`${sides.bare.url}${path}`);
  assertSameBytes(`${what}: api against bare node`, fromApi, fromBare);
  return fromApi;
}

/**
 * One page of the walk to page 1,000, from both servers: bare Node is handed the api's
 * token, must answer the same bytes, and so gets the api's warm-up on the way. Resolves
 * with the next token.
 */
async function walkStep(sides: Sides, path: string, what: string): Promise<string | null> {
  const body = await samePageOnBoth(sides, path, what);
  return (JSON.parse(body.toString('utf8')) as { next_token: string | null }).next_token;
}

/**
 * One row of the tables: ref SQL, SQL, HTTP and bare Node in alternating slices at each
 * concurrency, and the CPU time of each server per request it served.
 */
async function measureRow(sides: Sides, scenario: Scenario): Promise<Row> {
  const { pool, endpoint, api, bare, fetchBody } = sides;
  const body = await samePageOnBoth(sides, scenario.path, scenarioLabel(scenario));
  const page = JSON.parse(body.toString('utf8')) as { results: Array<{ items: unknown[] }> };
  const row: Row = {
    scenario,
    bytes: body.length,
    entries: page.results.length,
    items: page.results.reduce((sum, entry) => sum + entry.items.length, 0),
    ref: {},
    sql: {},
    http: {},
    bare: {},
    apiCpu: {},
    bareCpu: {},
  };
  for (const c of CONCURRENCY) {
    const apiCpuBefore = cpuMs(api.pid);
    const bareCpuBefore = cpuMs(bare.pid);
    [row.ref[c], row.sql[c], row.http[c], row.bare[c]] = await measureSides(
      [
        () => floorPage(pool, scenario.floor, REFERENCE_STATEMENTS),
        () => floorPage(pool, scenario.floor, endpoint),
        () => fetchBody(`${api.url}${scenario.path}`),
        () => fetchBody(`${bare.url}${scenario.path}`),
      ],
      c,
      SECONDS,
    );
    // Each server idles during the other sides' slices: its CPU time is its own requests'.
    row.apiCpu[c] = (cpuMs(api.pid) - apiCpuBefore) / row.http[c].requests;
    row.bareCpu[c] = (cpuMs(bare.pid) - bareCpuBefore) / row.bare[c].requests;
  }
  log(
    `${scenarioLabel(scenario)}: c1 SQL p50 ${fmt(row.sql[1].p50)} ms, HTTP p50 ${fmt(row.http[1].p50)} ms, ` +
      `bare p50 ${fmt(row.bare[1].p50)} ms, ratio ${fmt(row.http[1].p50 / row.sql[1].p50)}; ` +
      `c16 SQL p50 ${fmt(row.sql[16].p50)}, HTTP p50 ${fmt(row.http[16].p50)} p99 ${fmt(row.http[16].p99)}, ` +
      `HTTP req/s ${row.http[16].rps.toFixed(0)}, bare req/s ${row.bare[16].rps.toFixed(0)}`,
  );
  return row;
}

/**
 * The first pages (limit 100) of the heavy user against the same pages of the small user,
 * both from the api at c1 in alternating slices: the same request but for the key.
 */
async function measureHistory(
  sides: Sides,
  scenarios: Scenario[],
  fetchSmall: (url: string) => Promise<Buffer>,
): Promise<HistoryRow[]> {
  const history: HistoryRow[] = [];
  for (const scenario of scenarios.filter((s) => s.page === 1 && s.limit === PAGE_SIZE)) {
    const url = `${sides.api.url}${scenario.path}`;
    const smallPage = JSON.parse((await fetchSmall(url)).toString('utf8')) as {
      count: number;
      total: number;
    };
    // A short history also fills a shorter page: the heavy user's page of the same number
    // of entries tells the page's size from the history's.
    const sameSize =
      smallPage.count > 0 && smallPage.count < PAGE_SIZE
        ? url.replace(`limit=${PAGE_SIZE}`, `limit=${smallPage.count}`)
        : null;
    const [heavy, small, heavySameSize] = await measureSides(
      [
        () => sides.fetchBody(url),
        () => fetchSmall(url),
        ...(sameSize ? [() => sides.fetchBody(sameSize)] : []),
      ],
      1,
      SECONDS,
    );
    log(
      `${scenario.name}: heavy p50 ${fmt(heavy.p50)} ms, small p50 ${fmt(small.p50)} ms ` +
        `(the small user's page: ${smallPage.count} of ${smallPage.total} entries)` +
        (heavySameSize
          ? `, heavy at limit ${smallPage.count} p50 ${fmt(heavySameSize.p50)} ms`
          : ''),
    );
    history.push({ scenario, heavy, small, smallEntries: smallPage.count, heavySameSize });
  }
  return history;
}

async function main(): Promise<void> {
  const began = Date.now();
  const loadAtStart = loadAverage();
  assertLoopback('BENCH_DATABASE_URL', DATABASE_URL);
  assertLoopback('BENCH_REDIS_URL', REDIS_URL);
  if (!(SECONDS > 0)) throw new Error('BENCH_SECONDS must be a positive number');
  deadline(DEADLINE_MINUTES);
  log(`load average at start: ${loadAtStart}`);
  const env = benchServerEnv(DATABASE_URL, REDIS_URL, {
    DATABASE_PREPARED_STATEMENTS: String(PREPARED),
  });
  const endpoint = endpointStatements(PREPARED);
  // One connection more than the highest concurrency: the floor never waits for the pool.
  const pool = new Pool({ connectionString: DATABASE_URL, max: 17, statement_timeout: 60_000 });
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const rows: Row[] = [];
  let history: HistoryRow[] = [];
  const explains: string[] = [];
  const probes: string[] = [];
  let dataset: Dataset;
  let small: SmallUser;
  let fixedCost = NaN;
  try {
    dataset = await ensureDataset(pool, env);
    const { heavyUserId, lastDay } = dataset;
    const apiKey = await createApiKey(heavyUserId, env);
    small = await findSmallUser(pool);
    const smallKey = await createApiKey(small.userId, env);
    log(`small user ${small.userId}: ${small.contracts} contracts`);
    // The api applies pending migrations on boot (MIGRATIONS_RUN defaults to true).
    const api = await startServer('api', join(DIST, 'apps/api/src/main.js'), env, 'api listening');
    log(`api pid ${api.pid} at ${api.url}`);
    const bare = await startBareNode(env);
    log(`bare node pid ${bare.pid} at ${bare.url}`);
    const auth = { Authorization: `Bearer ${apiKey}` };
    const get = httpGetter(agent, auth);
    const fetchBody = httpFetcher(agent, auth);
    const sides: Sides = { pool, endpoint, api, bare, fetchBody };

    const ranges = [
      { range: '1 day', gte: lastDay, lte: lastDay },
      { range: '90 days', gte: lastDay - 89 * DAY, lte: lastDay },
    ];
    const scenarios: Scenario[] = [];
    for (const { range, gte, lte } of ranges) {
      for (const format of ['table', 'tree'] as ChargeFormat[]) {
        const filter: ChargeFilter = { gte, lte, categories: null, format, latestFirst: true };
        const first = await get(`${api.url}${chargesPath(filter, PAGE_SIZE, null)}`);
        const total = first.total as number;
        const pageOne = (limit: number): Scenario => ({
          name: `${range}, ${format}, page 1`,
          range,
          format,
          page: 1,
          limit,
          filter,
          path: chargesPath(filter, limit, null),
          floor: { userId: heavyUserId, filter, limit, cursor: null },
        });
        scenarios.push(pageOne(PAGE_SIZE));
        // Page 1,000 needs 1,000 pages: narrower ranges are walked with a smaller page.
        const limit = Math.max(1, Math.min(PAGE_SIZE, Math.floor((total - 1) / DEEP_PAGE)));
        let token: string | null = null;
        const walkStarted = Date.now();
        for (let page = 1; page < DEEP_PAGE; page += 1) {
          const what = `${range}, ${format}, page ${page} of the walk (limit ${limit})`;
          token = await walkStep(sides, chargesPath(filter, limit, token), what);
          if (!token) throw new Error(`${range} ${format}: only ${page} pages of ${limit}`);
        }
        log(
          `${range} ${format}: total ${total}, walked to page ${DEEP_PAGE} (limit ${limit}) on the api and ` +
            `bare node, the same bytes on every page, in ${Date.now() - walkStarted} ms`,
        );
        if (limit !== PAGE_SIZE) scenarios.push(pageOne(limit));
        const deep: Scenario = {
          name: `${range}, ${format}, page ${DEEP_PAGE}`,
          range,
          format,
          page: DEEP_PAGE,
          limit,
          filter,
          path: chargesPath(filter, limit, token),
          floor: { userId: heavyUserId, filter, limit, cursor: cursorOf(token!) },
        };
        scenarios.push(deep);
        for (const [title, request] of [
          [`page 1, limit ${PAGE_SIZE}`, pageOne(PAGE_SIZE).floor],
          [`page ${DEEP_PAGE}, limit ${limit}`, deep.floor],
        ] as const) {
          explains.push(
            `#### ${range}, ${format}, ${title} (total ${total})\n\n\`\`\`text\n${await explainFloor(pool, request)}\n\`\`\``,
          );
        }
      }
    }

    // What every request pays besides the report's SQL: the framework alone, then the
    // framework with the Bearer lookup and one small read.
    const fixed: number[] = [];
    for (const [name, path] of [
      ['GET /health/live (no auth, no SQL)', '/health/live'],
      ['GET /api/v0/users/current (Bearer lookup + one row)', '/api/v0/users/current'],
    ] as const) {
      const m = await measureLoop(() => fetchBody(`${api.url}${path}`), 1, SECONDS);
      probes.push(`| ${name} | ${fmt(m.p50)} | ${fmt(m.p99)} | ${m.rps.toFixed(0)} |`);
      fixed.push(m.p50);
      log(`${name}: p50 ${fmt(m.p50)} ms, p99 ${fmt(m.p99)} ms`);
    }
    fixedCost = fixed[1] - fixed[0];

    for (const scenario of scenarios) rows.push(await measureRow(sides, scenario));
    history = await measureHistory(
      sides,
      scenarios,
      httpFetcher(agent, { Authorization: `Bearer ${smallKey}` }),
    );
  } finally {
    agent.destroy();
    await stopAll();
    await pool.end();
  }

  const loadAtEnd = loadAverage();
  const table = CONCURRENCY.map((c) => renderTable(rows, c)).join('\n\n');
  const versusBare = bareComparison(rows);
  const checks = [
    ...targetChecks(rows),
    '',
    ...bareChecks(rows),
    '',
    ...historyChecks(history, dataset.heavyContracts, small),
    '',
    `Fixed cost of an authenticated request (users/current p50 - health/live p50) < 0.3 ms: ` +
      `${fmt(fixedCost)} ms ${mark(fixedCost < 0.3)}`,
  ];
  const seconds = Math.round((Date.now() - began) / 1000);
  const section = [
    `Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench:charges\` ` +
      `(bench/charges.bench.ts) on ${machine()}; load average (1 / 5 / 15 min) ${loadAtStart} at the start, ` +
      `${loadAtEnd} at the end (the end figure includes this run's own c16 loops). Total run ${seconds} s.`,
    '',
    `Data: ${DATABASE_URL.replace(/\/\/[^@]*@/, '//')}${dataset.seeded ? ' (seeded by this run)' : ''}: ` +
      `${dataset.users.toLocaleString('en')} demo users, ${dataset.contracts.toLocaleString('en')} contracts, ` +
      `${dataset.charges.toLocaleString('en')} daily charge rows; heavy user ${dataset.heavyUserId} owns ` +
      `${dataset.heavyContracts.toLocaleString('en')} contracts; last charged day ` +
      `${new Date(dataset.lastDay * 1000).toISOString().slice(0, 10)}. All pages latest first, for the heavy user; ` +
      `the small user ${small.userId} (the demo user whose contract count is closest to ${SMALL_HISTORY}) owns ` +
      `${small.contracts} contracts.`,
    '',
    `Method: SQL = the endpoint's own statements (libs/billing/.../charge-report.sql.ts) run from this ` +
      `process on pg${PREPARED ? ' as named statements, as the api runs them (DATABASE_PREPARED_STATEMENTS=true)' : ''}, in the endpoint's rounds (head on page 1, page, then the page's charges and wrapper ` +
      `amounts in parallel). HTTP = the same page from the api (spawned from the same build, ` +
      `\`RATE_LIMITS=off\`, \`LOG_LEVEL=warn\`, no worker), keep-alive, timed to the last byte of the body ` +
      `(the client's JSON.parse is not the endpoint's time). ref SQL = the same rounds with the statements ` +
      `the endpoint ran before the running totals (frozen in bench/charges-reference.sql.ts), so a lower floor ` +
      `shows; SQL / ref = their p50 ratio. bare = the same request from bare Node (bench/baseline-charges-server.ts: ` +
      `node:http and pg with the product's own query parser, use case, cursor codec, statements and presenter, ` +
      `the Bearer key's fingerprint looked up in an in-process cache as on the api's cached path, the api's pool ` +
      `size; no framework, guards or logging), checked before each row to answer the api's bytes exactly. ` +
      `ref SQL, SQL, HTTP and bare ` +
      `of one row are measured in alternating slices (A B C D D C B A ...), ${SECONDS} s per side and concurrency, ` +
      `so drift in the background load hits all alike. c1 / c16 = 1 / 16 concurrent loops; latencies in ms; ` +
      `ratio = HTTP p50 / SQL p50 at the same concurrency; api (bare) CPU ms/req = the api's (bare Node's) user + system ` +
      `CPU time over the row's measurement (each server idles during the other sides' slices) per request it served. ` +
      `Endpoint vs bare node: c1 p50 = HTTP p50 / bare p50 at c1, c16 req/s = HTTP req/s / bare req/s at c16, ` +
      `CPU ms/req = api against bare at c16. The history targets compare the heavy user's first pages with the ` +
      `small user's (HTTP, c1, the same requests with the other user's key, alternating slices). ` +
      `Page ${DEEP_PAGE.toLocaleString('en')} is reached by ` +
      `walking next_token from page 1 (bare Node is given the api's token); a range with fewer than ${(DEEP_PAGE * PAGE_SIZE).toLocaleString('en')} ` +
      `entries is walked with the largest limit that still has ${DEEP_PAGE.toLocaleString('en')} pages, and its ` +
      `page 1 is measured at that limit too.`,
    '',
    table,
    '',
    BARE_COMPARISON_TITLE,
    '',
    ...versusBare,
    '',
    'Fixed cost of any api request (HTTP, concurrency 1, same run):',
    '',
    '| Request | p50 ms | p99 ms | req/s |',
    '|---|---:|---:|---:|',
    ...probes,
    '',
    '##### Targets',
    '',
    ...checks,
    '',
    '<details><summary>Plans of the statements of page 1 and page 1,000 (EXPLAIN ANALYZE, BUFFERS; this run)</summary>',
    '',
    ...explains.flatMap((explain) => [explain, '']),
    '</details>',
  ].join('\n');
  process.stdout.write(
    `${table}\n\n${[BARE_COMPARISON_TITLE, ...versusBare].join('\n')}\n\n${checks.join('\n')}\n`,
  );
  if (DOCS !== '-') {
    await writeDocs(section);
    log(`written to ${DOCS}`);
  }
  log(`load average at end: ${loadAtEnd}; total ${seconds} s`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`charges benchmark failed: ${(error as Error).stack ?? String(error)}\n`);
    void stopAll().finally(() => process.exit(1));
  },
);
