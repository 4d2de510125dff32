/**
 * `npm run bench:charges`: the charges report on a seed:demo dataset (1,000,000 contracts,
 * ~10,000,000 daily charges, 10,000 users, a heavy user with ~200,000 contracts).
 * For the heavy user it measures, in one run, the SQL floor (the endpoint's own statements
 * on pg) and the endpoint over HTTP (a spawned api, RATE_LIMITS=off) at concurrency 1 and
 * 16, then prints the table and writes it into docs/performance.md. Not part of `npm test`.
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
import { httpFetcher, httpGetter, Measurement, measureLoop, measureSides } from './charges-measure';
import {
  endpointStatements,
  explainFloor,
  floorPage,
  FloorRequest,
  REFERENCE_STATEMENTS,
} from './charges-sql-floor';
import { writeMarkdown } from './docs';
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

interface Scenario {
  name: string;
  range: string;
  format: ChargeFormat;
  page: number;
  limit: number;
  filter: ChargeFilter;
  url: string;
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
  /** CPU time of the api process per HTTP request (ms), over the paired measurement. */
  apiCpu: Record<number, number>;
}

function chargesUrl(
  base: string,
  filter: ChargeFilter,
  limit: number,
  token: string | null,
): string {
  // Encoded like the public client: quote_plus of Python's json.dumps.
  const filters = JSON.stringify({ day: { gte: filter.gte, lte: filter.lte } }).replace(
    /([:,])/g,
    '$1 ',
  );
  const params = [
    `select_filters=${encodeURIComponent(filters).replace(/%20/g, '+')}`,
    `latest_first=${filter.latestFirst}`,
    `limit=${limit}`,
    `format=${filter.format}`,
    ...(token ? [`after_token=${encodeURIComponent(token)}`] : []),
  ];
  return `${base}/api/v0/charges/?${params.join('&')}`;
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
    `| Scenario (concurrency ${c}) | limit | entries / items | body KiB | ref SQL p50 | SQL p50 | SQL / ref | HTTP p50 | ratio | SQL p99 | HTTP p99 | SQL req/s | HTTP req/s | api CPU ms/req |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { scenario, bytes, entries, items, ref, sql, http, apiCpu } of rows) {
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
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
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
  const explains: string[] = [];
  const probes: string[] = [];
  let dataset: Dataset;
  let fixedCost = NaN;
  try {
    dataset = await ensureDataset(pool, env);
    const { heavyUserId, lastDay } = dataset;
    const { api_key: apiKey } = (await runManage(
      ['apikey:create', '--user', String(heavyUserId)],
      env,
    )) as { api_key: string };
    // The api applies pending migrations on boot (MIGRATIONS_RUN defaults to true).
    const api = await startServer('api', join(DIST, 'apps/api/src/main.js'), env, 'api listening');
    log(`api pid ${api.pid} at ${api.url}`);
    const auth = { Authorization: `Bearer ${apiKey}` };
    const get = httpGetter(agent, auth);
    const fetchBody = httpFetcher(agent, auth);

    const ranges = [
      { range: '1 day', gte: lastDay, lte: lastDay },
      { range: '90 days', gte: lastDay - 89 * DAY, lte: lastDay },
    ];
    const scenarios: Scenario[] = [];
    for (const { range, gte, lte } of ranges) {
      for (const format of ['table', 'tree'] as ChargeFormat[]) {
        const filter: ChargeFilter = { gte, lte, categories: null, format, latestFirst: true };
        const first = await get(chargesUrl(api.url, filter, PAGE_SIZE, null));
        const total = first.total as number;
        const pageOne = (limit: number): Scenario => ({
          name: `${range}, ${format}, page 1`,
          range,
          format,
          page: 1,
          limit,
          filter,
          url: chargesUrl(api.url, filter, limit, null),
          floor: { userId: heavyUserId, filter, limit, cursor: null },
        });
        scenarios.push(pageOne(PAGE_SIZE));
        // Page 1,000 needs 1,000 pages: narrower ranges are walked with a smaller page.
        const limit = Math.max(1, Math.min(PAGE_SIZE, Math.floor((total - 1) / DEEP_PAGE)));
        let token: string | null = null;
        const walkStarted = Date.now();
        for (let page = 1; page < DEEP_PAGE; page += 1) {
          const body = await get(chargesUrl(api.url, filter, limit, token));
          token = body.next_token as string | null;
          if (!token) throw new Error(`${range} ${format}: only ${page} pages of ${limit}`);
        }
        log(
          `${range} ${format}: total ${total}, walked to page ${DEEP_PAGE} (limit ${limit}) in ${Date.now() - walkStarted} ms`,
        );
        if (limit !== PAGE_SIZE) scenarios.push(pageOne(limit));
        const deep: Scenario = {
          name: `${range}, ${format}, page ${DEEP_PAGE}`,
          range,
          format,
          page: DEEP_PAGE,
          limit,
          filter,
          url: chargesUrl(api.url, filter, limit, token),
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

    for (const scenario of scenarios) {
      const body = await fetchBody(scenario.url);
      const page = JSON.parse(body.toString('utf8')) as { results: Array<{ items: unknown[] }> };
      const row: Row = {
        scenario,
        bytes: body.length,
        entries: page.results.length,
        items: page.results.reduce((sum, entry) => sum + entry.items.length, 0),
        ref: {},
        sql: {},
        http: {},
        apiCpu: {},
      };
      for (const concurrency of CONCURRENCY) {
        const cpuBefore = cpuMs(api.pid);
        [row.ref[concurrency], row.sql[concurrency], row.http[concurrency]] = await measureSides(
          [
            () => floorPage(pool, scenario.floor, REFERENCE_STATEMENTS),
            () => floorPage(pool, scenario.floor, endpoint),
            () => fetchBody(scenario.url),
          ],
          concurrency,
          SECONDS,
        );
        // The api idles during the SQL slices, so its CPU time is the HTTP requests'.
        row.apiCpu[concurrency] = (cpuMs(api.pid) - cpuBefore) / row.http[concurrency].requests;
      }
      rows.push(row);
      log(
        `${scenario.name} (limit ${scenario.limit}): c1 SQL p50 ${fmt(row.sql[1].p50)} ms, HTTP p50 ${fmt(row.http[1].p50)} ms, ratio ${fmt(row.http[1].p50 / row.sql[1].p50)}; ` +
          `c16 SQL p50 ${fmt(row.sql[16].p50)}, HTTP p50 ${fmt(row.http[16].p50)} p99 ${fmt(row.http[16].p99)}`,
      );
    }
  } finally {
    agent.destroy();
    await stopAll();
    await pool.end();
  }

  const loadAtEnd = loadAverage();
  const table = CONCURRENCY.map((c) => renderTable(rows, c)).join('\n\n');
  const checks = [
    ...targetChecks(rows),
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
      `${new Date(dataset.lastDay * 1000).toISOString().slice(0, 10)}. All pages latest first, for the heavy user.`,
    '',
    `Method: SQL = the endpoint's own statements (libs/billing/.../charge-report.sql.ts) run from this ` +
      `process on pg${PREPARED ? ' as named statements, as the api runs them (DATABASE_PREPARED_STATEMENTS=true)' : ''}, in the endpoint's rounds (head on page 1, page, then the page's charges and wrapper ` +
      `amounts in parallel). HTTP = the same page from the api (spawned from the same build, ` +
      `\`RATE_LIMITS=off\`, \`LOG_LEVEL=warn\`, no worker), keep-alive, timed to the last byte of the body ` +
      `(the client's JSON.parse is not the endpoint's time). ref SQL = the same rounds with the statements ` +
      `the endpoint ran before the running totals (frozen in bench/charges-reference.sql.ts), so a lower floor ` +
      `shows; SQL / ref = their p50 ratio. ref SQL, SQL and HTTP ` +
      `of one row are measured in alternating slices (A B C C B A ...), ${SECONDS} s per side and concurrency, ` +
      `so drift in the background load hits all alike. c1 / c16 = 1 / 16 concurrent loops; latencies in ms; ` +
      `ratio = HTTP p50 / SQL p50 at the same concurrency; api CPU ms/req = the api process's user + system ` +
      `CPU time over the row's measurement (it idles during the SQL slices) per HTTP request. Page ${DEEP_PAGE.toLocaleString('en')} is reached by ` +
      `walking next_token from page 1; a range with fewer than ${(DEEP_PAGE * PAGE_SIZE).toLocaleString('en')} ` +
      `entries is walked with the largest limit that still has ${DEEP_PAGE.toLocaleString('en')} pages, and its ` +
      `page 1 is measured at that limit too.`,
    '',
    table,
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
  process.stdout.write(`${table}\n\n${checks.join('\n')}\n`);
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
