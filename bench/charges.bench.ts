/**
 * `npm run bench:charges`: the charges report on a seed:demo dataset (1,000,000 contracts,
 * ~10,000,000 daily charges, 10,000 users, a heavy user with ~200,000 contracts).
 * For the heavy user it measures, in one run, the SQL floor (the endpoint's own statements
 * on pg) and the endpoint over HTTP (a spawned api, RATE_LIMITS=off) at concurrency 1 and
 * 16, then prints the table and writes it into docs/performance.md.
 *
 * Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/gpumarket_bench),
 * BENCH_REDIS_URL (default redis://127.0.0.1:6379/0), BENCH_SECONDS per measurement
 * (default 3), BENCH_DOCS (default docs/performance.md under the working directory).
 */
import { ChildProcess, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Pool } from 'pg';
import { ChargeFilter, ChargeFormat } from '@app/billing/domain/charge-report';
import { httpGetter, Measurement, measureLoop } from './charges-measure';
import { explainFloor, floorPage, FloorRequest } from './charges-sql-floor';

const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/gpumarket_bench';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const DOCS = process.env.BENCH_DOCS ?? join(process.cwd(), 'docs', 'performance.md');
const DIST = join(__dirname, '..');
const SEED = { users: 10_000, contracts: 1_000_000, days: 120 };
const DAY = 86_400;
const PAGE_SIZE = 100;
const DEEP_PAGE = 1000;

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

function runManage(args: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(DIST, 'apps/manage/src/main.js'), ...args], {
      env: { ...process.env, DATABASE_URL, REDIS_URL },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(stdout) as Record<string, unknown>)
        : reject(new Error(`manage ${args[0]} exited with ${code}`)),
    );
  });
}

/** Seeds through `manage seed:demo` unless the database already holds the dataset. */
async function ensureDataset(pool: Pool): Promise<{ heavyUserId: number; lastDay: number }> {
  const present = await pool
    .query(
      `SELECT u.id AS heavy, (SELECT count(*) FROM billing_contracts)::int AS contracts,
              (SELECT max(last_charge_day) FROM billing_contracts)::bigint AS last_day
         FROM users u WHERE u.email = 'demo-1@demo.gpumarket.test'`,
    )
    .then((result) => result.rows[0] as { heavy: number; contracts: number; last_day: string })
    .catch(() => undefined);
  if (present && present.contracts >= SEED.contracts) {
    log(`dataset present: ${present.contracts} contracts`);
    return { heavyUserId: present.heavy, lastDay: Number(present.last_day) };
  }
  log('seeding (manage seed:demo) ...');
  const summary = await runManage([
    'seed:demo',
    '--users',
    String(SEED.users),
    '--contracts',
    String(SEED.contracts),
    '--days',
    String(SEED.days),
  ]);
  log(`seeded: ${JSON.stringify(summary)}`);
  return { heavyUserId: summary.heavy_user_id as number, lastDay: summary.last_day as number };
}

async function spawnApi(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(DIST, 'apps/api/src/main.js')], {
    env: {
      ...process.env,
      DATABASE_URL,
      REDIS_URL,
      RATE_LIMITS: 'off',
      RUN_WORKER: 'false',
      LOG_LEVEL: 'warn',
      PORT: '0',
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('api did not start')), 60_000);
    child.once('exit', (code) => reject(new Error(`api exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const parsed = JSON.parse(line) as { msg?: string; port?: number };
        if (parsed.msg === 'api listening' && parsed.port) {
          clearTimeout(timer);
          resolve(parsed.port);
        }
      } catch {
        // ordinary log line
      }
    });
  });
  return { child, url: `http://127.0.0.1:${port}` };
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
  sql: Record<number, Measurement>;
  http: Record<number, Measurement>;
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

function renderTable(rows: Row[]): string {
  const lines = [
    '| Scenario | limit | SQL p50 c1 | HTTP p50 c1 | ratio | SQL p99 c1 | HTTP p99 c1 | HTTP req/s c1 | SQL p50 c16 | HTTP p50 c16 | ratio c16 | HTTP p99 c16 | SQL req/s c16 | HTTP req/s c16 |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { scenario, sql, http } of rows) {
    lines.push(
      `| ${scenario.name} | ${scenario.limit} | ${fmt(sql[1].p50)} | ${fmt(http[1].p50)} | ${fmt(http[1].p50 / sql[1].p50)} | ${fmt(sql[1].p99)} | ${fmt(http[1].p99)} | ${http[1].rps.toFixed(0)} | ${fmt(sql[16].p50)} | ${fmt(http[16].p50)} | ${fmt(http[16].p50 / sql[16].p50)} | ${fmt(http[16].p99)} | ${sql[16].rps.toFixed(0)} | ${http[16].rps.toFixed(0)} |`,
    );
  }
  return lines.join('\n');
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
  await writeFile(DOCS, text);
}

async function main(): Promise<void> {
  const began = Date.now();
  const pool = new Pool({ connectionString: DATABASE_URL, max: 17 });
  const { heavyUserId, lastDay } = await ensureDataset(pool);
  const { api_key: apiKey } = (await runManage([
    'apikey:create',
    '--user',
    String(heavyUserId),
  ])) as {
    api_key: string;
  };
  const api = await spawnApi();
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const get = httpGetter(agent, { Authorization: `Bearer ${apiKey}` });
  const rows: Row[] = [];
  const explains: string[] = [];
  try {
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
        scenarios.push({
          name: `${range}, ${format}, page 1`,
          range,
          format,
          page: 1,
          limit: PAGE_SIZE,
          filter,
          url: chargesUrl(api.url, filter, PAGE_SIZE, null),
          floor: { userId: heavyUserId, filter, limit: PAGE_SIZE, cursor: null },
        });
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
        if (limit !== PAGE_SIZE) {
          scenarios.push({
            name: `${range}, ${format}, page 1`,
            range,
            format,
            page: 1,
            limit,
            filter,
            url: chargesUrl(api.url, filter, limit, null),
            floor: { userId: heavyUserId, filter, limit, cursor: null },
          });
        }
        scenarios.push({
          name: `${range}, ${format}, page ${DEEP_PAGE}`,
          range,
          format,
          page: DEEP_PAGE,
          limit,
          filter,
          url: chargesUrl(api.url, filter, limit, token),
          floor: { userId: heavyUserId, filter, limit, cursor: cursorOf(token!) },
        });
        explains.push(
          `### ${range}, ${format}, page 1 (total ${total})\n\n\`\`\`\n${await explainFloor(pool, {
            userId: heavyUserId,
            filter,
            limit: PAGE_SIZE,
            cursor: null,
          })}\n\`\`\``,
        );
      }
    }
    for (const scenario of scenarios) {
      const row: Row = { scenario, sql: {}, http: {} };
      for (const concurrency of [1, 16]) {
        row.sql[concurrency] = await measureLoop(
          () => floorPage(pool, scenario.floor),
          concurrency,
          SECONDS,
        );
        row.http[concurrency] = await measureLoop(() => get(scenario.url), concurrency, SECONDS);
      }
      rows.push(row);
      log(
        `${scenario.name} (limit ${scenario.limit}): SQL p50 ${fmt(row.sql[1].p50)} ms, HTTP p50 ${fmt(row.http[1].p50)} ms, ratio ${fmt(row.http[1].p50 / row.sql[1].p50)}; c16 HTTP p50 ${fmt(row.http[16].p50)} p99 ${fmt(row.http[16].p99)}`,
      );
    }
  } finally {
    agent.destroy();
    api.child.kill('SIGTERM');
    await pool.end();
  }

  const table = renderTable(rows);
  const checks: string[] = [];
  for (const row of rows) {
    const ratio = row.http[1].p50 / row.sql[1].p50;
    checks.push(
      `- ${row.scenario.name} (limit ${row.scenario.limit}): endpoint/SQL p50 ${fmt(ratio)} (target <= 1.5) ${ratio <= 1.5 ? 'met' : 'MISSED'}`,
    );
  }
  for (const deep of rows.filter((row) => row.scenario.page === DEEP_PAGE)) {
    const first = rows.find(
      (row) =>
        row.scenario.page === 1 &&
        row.scenario.range === deep.scenario.range &&
        row.scenario.format === deep.scenario.format &&
        row.scenario.limit === deep.scenario.limit,
    )!;
    const ratio = deep.http[1].p50 / first.http[1].p50;
    checks.push(
      `- ${deep.scenario.range}, ${deep.scenario.format}: page ${DEEP_PAGE} / page 1 HTTP p50 ${fmt(ratio)} (target <= 1.2) ${ratio <= 1.2 ? 'met' : 'MISSED'}`,
    );
  }
  for (const row of rows.filter((r) => r.scenario.range === '90 days' && r.scenario.page === 1)) {
    for (const concurrency of [1, 16]) {
      const p99 = row.http[concurrency].p99;
      checks.push(
        `- 90 days, ${row.scenario.format}, page 1, concurrency ${concurrency}: HTTP p99 ${fmt(p99)} ms (target < 100) ${p99 < 100 ? 'met' : 'MISSED'}`,
      );
    }
  }
  const section = [
    `Run of ${new Date().toISOString().slice(0, 10)} on ${DATABASE_URL.replace(/\/\/[^@]*@/, '//')}: heavy user ${heavyUserId}, ` +
      `last charged day ${new Date(lastDay * 1000).toISOString().slice(0, 10)}, ${SECONDS} s per measurement, latencies in ms ` +
      `(c1/c16 = concurrency 1/16; ratio = HTTP p50 / SQL p50 at the same concurrency). Total run ${Math.round((Date.now() - began) / 1000)} s.`,
    '',
    table,
    '',
    'Targets:',
    '',
    ...checks,
    '',
    '<details><summary>Plans of the page and total statements (EXPLAIN ANALYZE, this run)</summary>',
    '',
    ...explains,
    '',
    '</details>',
  ].join('\n');
  process.stdout.write(`${table}\n\n${checks.join('\n')}\n`);
  await writeDocs(section);
  log(`written to ${DOCS}`);
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
