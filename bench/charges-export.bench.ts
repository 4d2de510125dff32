/**
 * `npm run bench:billing`: the charges export and statement for a year of the heavy user
 * of a seed:demo dataset (1,000,000 contracts; see bench/charges.bench.ts, which seeds it).
 * Export: rows/s, MB/s, time to the first byte and the api's RSS growth (sampled from
 * /proc every 20 ms) per format, uncompressed and compressed (gzip, br: the bytes on the
 * wire against the decoded ones), and 30 days for a client that reads slowly (the
 * cursor must wait for it: RSS stays flat). The export's floor: the database's own speed
 * at the same work, `COPY (<the export's query>) TO STDOUT (FORMAT csv)` with the export's
 * parameters for the same year, read to its end from this process, once before and once
 * after the year's uncompressed exports (after an untimed pass, so that no side pays for
 * reading the year from disk); each year's export is reported against it (export rows/s
 * over COPY rows/s of both runs, target >= 0.6). Statement: HTTP and SQL latency per period and grouping.
 * Prints a markdown report (nothing is written to docs/). Not part of `npm test`.
 *
 * Environment (all optional):
 *   BENCH_DATABASE_URL  postgres://postgres@127.0.0.1:5432/gpumarket_bench (must hold the dataset)
 *   BENCH_REDIS_URL     redis://127.0.0.1:6379/10
 *   BENCH_REPEAT        20 statement requests per case (the exports and the COPY floor
 *                       always run in full: a shorter setting shortens the statements only)
 */
import { Agent, get } from 'node:http';
import { join } from 'node:path';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import { escapeLiteral, Pool } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import {
  exportLinesStatement,
  statementSumsStatement,
} from '@app/billing/infrastructure/persistence/charge-statement.sql';
import { SqlStatement } from '@app/billing/infrastructure/persistence/charge-report.sql';
import { StatementGrouping, StatementPeriod } from '@app/billing/domain/charge-statement';
import { exportedDays } from '@app/billing/domain/charge-export';
import { chargeOwnerKey } from '@app/billing/domain/contract';
import { parseChargeExportQuery } from '@app/billing/http/charges.request';
import {
  assertLoopback,
  deadline,
  DIST,
  loadAverage,
  log,
  machine,
  rssMiB,
  runManage,
  startServer,
  stopAll,
  benchServerEnv,
} from './processes';

const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/gpumarket_bench';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/10';
const REPEAT = Number(process.env.BENCH_REPEAT ?? 20);
const HEAVY_EMAIL = 'demo-1@demo.gpumarket.test';
const DAY = 86_400;
/** The least share of the database's own speed (COPY) the export must keep. */
const COPY_TARGET = 0.6;

interface ExportRun {
  label: string;
  rows: number;
  /** On the wire (compressed when an encoding was asked for). */
  bytes: number;
  /** Once decoded: the CSV or NDJSON itself. */
  decodedBytes: number;
  seconds: number;
  firstByteMs: number;
  rssBefore: number;
  rssPeak: number;
}

/**
 * Downloads one export, counting lines and bytes, sampling the api's RSS meanwhile. With
 * an `encoding`, asks for it (Accept-Encoding) and decodes the body to count its lines.
 */
function download(
  url: string,
  auth: Record<string, string>,
  apiPid: number,
  label: string,
  readDelayMs = 0,
  encoding: 'gzip' | 'br' | null = null,
): Promise<ExportRun> {
  return new Promise((resolve, reject) => {
    const rssBefore = rssMiB(apiPid);
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMiB(apiPid))), 20);
    const started = process.hrtime.bigint();
    let firstByteMs = 0;
    let bytes = 0;
    let decodedBytes = 0;
    let rows = 0;
    const headers = encoding ? { ...auth, 'Accept-Encoding': encoding } : auth;
    get(url, { headers }, (response) => {
      if (response.statusCode !== 200) {
        clearInterval(sampler);
        reject(new Error(`export answered ${response.statusCode}`));
        return;
      }
      if ((response.headers['content-encoding'] ?? null) !== encoding) {
        clearInterval(sampler);
        reject(new Error(`asked for ${encoding}, got ${response.headers['content-encoding']}`));
        return;
      }
      response.on('data', (chunk: Buffer) => {
        if (bytes === 0) firstByteMs = Number(process.hrtime.bigint() - started) / 1e6;
        bytes += chunk.length;
        if (readDelayMs > 0) {
          response.pause();
          setTimeout(() => response.resume(), readDelayMs);
        }
      });
      const decoded =
        encoding === 'gzip'
          ? response.pipe(createGunzip())
          : encoding === 'br'
            ? response.pipe(createBrotliDecompress())
            : response;
      decoded.on('data', (chunk: Buffer) => {
        decodedBytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows++;
      });
      decoded.on('end', () => {
        clearInterval(sampler);
        rssPeak = Math.max(rssPeak, rssMiB(apiPid));
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        // The CSV header is a line too; labels in the dataset hold no line breaks.
        resolve({
          label,
          rows: label.includes('csv') ? rows - 1 : rows,
          bytes,
          decodedBytes,
          seconds,
          firstByteMs,
          rssBefore,
          rssPeak,
        });
      });
      response.on('error', reject);
      decoded.on('error', reject);
    }).on('error', reject);
  });
}

/**
 * A value as a SQL literal for a statement that takes no parameters (COPY): quoted, so
 * PostgreSQL resolves its type from where it stands, as it does a parameter's; an array as
 * an array literal ('{"a","b"}').
 */
function literal(value: unknown): string {
  if (Array.isArray(value))
    return escapeLiteral(`{${value.map((item) => JSON.stringify(String(item))).join(',')}}`);
  return escapeLiteral(String(value));
}

/** The statement's text with its `$n` placeholders replaced by their values. */
function inlineValues({ text, values }: SqlStatement): string {
  return text.replace(/\$(\d+)/g, (_match, index: string) => literal(values[Number(index) - 1]));
}

/**
 * The export's own statement for `select_filters` of the heavy user, as the api builds it
 * for GET /api/v0/charges/export/?select_filters=...&format=csv (the same parser, the
 * same days, the same owner key).
 */
function exportStatement(userId: number, gte: number, lte: number): SqlStatement {
  const query = exportedDays(
    parseChargeExportQuery({
      select_filters: JSON.stringify({ day: { gte, lte } }),
      format: 'csv',
    }),
  );
  const ownerKey = chargeOwnerKey({ userId, teamId: null });
  return exportLinesStatement(ownerKey, query.gte, query.lte, query.categories);
}

/**
 * The database's own speed at the export's work: COPY of the export's query to this
 * process in CSV, read to its end; its rows are those the server says it copied.
 */
async function copyFloor(pool: Pool, statement: SqlStatement, label: string): Promise<ExportRun> {
  const client = await pool.connect();
  try {
    const started = process.hrtime.bigint();
    const stream = client.query(copyTo(`COPY (${inlineValues(statement)}) TO STDOUT (FORMAT csv)`));
    let firstByteMs = 0;
    let bytes = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (bytes === 0) firstByteMs = Number(process.hrtime.bigint() - started) / 1e6;
      bytes += chunk.length;
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return {
      label,
      rows: stream.rowCount,
      bytes,
      decodedBytes: bytes,
      seconds,
      firstByteMs,
      rssBefore: NaN,
      rssPeak: NaN,
    };
  } finally {
    client.release();
  }
}

/** One row of the export table; the COPY floor's own rows have no api and no ratio. */
function exportRow(run: ExportRun, copyRate: number): string {
  const rate = run.rows / run.seconds;
  const fixed = (value: number, digits: number) =>
    Number.isFinite(value) ? value.toFixed(digits) : '-';
  const cells = [
    run.label,
    run.rows.toLocaleString('en'),
    (run.bytes / 1e6).toFixed(1),
    (run.decodedBytes / 1e6).toFixed(1),
    run.seconds.toFixed(1),
    Math.round(rate).toLocaleString('en'),
    // The same query and range as the floor: the year's exports only.
    run.label.startsWith('a year') && !run.label.includes('COPY') ? fixed(rate / copyRate, 2) : '-',
    (run.bytes / 1e6 / run.seconds).toFixed(1),
    run.firstByteMs.toFixed(0),
    fixed(run.rssBefore, 0),
    fixed(run.rssPeak, 0),
    fixed(run.rssPeak - run.rssBefore, 1),
  ];
  return `| ${cells.join(' | ')} |`;
}

/** Rows per second of runs taken together: their rows over their summed time. */
function pooledRate(runs: ExportRun[]): number {
  const rows = runs.reduce((sum, run) => sum + run.rows, 0);
  return rows / runs.reduce((sum, run) => sum + run.seconds, 0);
}

/** The year's exports as the api serves them by default (no compression): the export itself. */
const isYearExport = (run: ExportRun) => /^a year, (csv|ndjson)$/.test(run.label);

/** The year's exports against the COPY floor, with the target's verdict. */
function copyChecks(exports: ExportRun[], floor: ExportRun[]): string[] {
  const copyRate = pooledRate(floor);
  const rate = (value: number) => Math.round(value).toLocaleString('en');
  return [
    `Export vs the database's own speed (export rows/s / COPY rows/s >= ${COPY_TARGET} x; COPY rows/s ` +
      `of its ${floor.length} runs taken together):`,
    '',
    ...exports.filter(isYearExport).map((run) => {
      const ratio = run.rows / run.seconds / copyRate;
      return (
        `- ${run.label}: ${rate(run.rows / run.seconds)} / ${rate(copyRate)} rows/s = ` +
        `${ratio.toFixed(2)} x ${ratio >= COPY_TARGET ? 'met' : '**MISSED**'}`
      );
    }),
  ];
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main(): Promise<void> {
  deadline(30);
  assertLoopback('BENCH_DATABASE_URL', DATABASE_URL);
  assertLoopback('BENCH_REDIS_URL', REDIS_URL);
  const loadAtStart = loadAverage();
  const pool = new Pool({ connectionString: DATABASE_URL, max: 2 });
  const env = benchServerEnv(DATABASE_URL, REDIS_URL);
  const exports: ExportRun[] = [];
  /** COPY of the export's query, before and after the year's uncompressed exports. */
  const floor: ExportRun[] = [];
  const statements: string[] = [];
  let context = '';
  try {
    const { rows } = await pool.query<{ id: number; last_day: string; contracts: number }>(
      `SELECT u.id, (SELECT max(last_charge_day) FROM billing_contracts c WHERE c.user_id = u.id)::text AS last_day,
              (SELECT count(*) FROM billing_contracts c WHERE c.user_id = u.id)::int AS contracts
         FROM users u WHERE u.email = $1`,
      [HEAVY_EMAIL],
    );
    if (!rows[0] || rows[0].contracts < 200_000) {
      throw new Error('no seed:demo dataset here: run `npm run bench:charges` (it seeds) first');
    }
    const heavy = rows[0].id;
    const lastDay = Number(rows[0].last_day);
    const gte = lastDay - 364 * DAY;
    const { api_key: apiKey } = (await runManage(
      ['apikey:create', '--user', String(heavy)],
      env,
    )) as { api_key: string };
    // The api applies pending migrations on boot (the statement summary's backfill).
    const api = await startServer(
      'api',
      join(DIST, 'apps/api/src/main.js'),
      env,
      'api listening',
      600_000,
    );
    const auth = { Authorization: `Bearer ${apiKey}` };
    const yearStatement = exportStatement(heavy, gte, lastDay);
    const copyLabel = (when: string) =>
      `a year, COPY (the export's query) TO STDOUT (FORMAT csv), ${when}`;
    const filters = encodeURIComponent(JSON.stringify({ day: { gte, lte: lastDay } }));
    const exportUrl = (format: string) =>
      `${api.url}/api/v0/charges/export/?select_filters=${filters}&format=${format}`;
    // Warm-up: code paths, pool connections, the plan and the heap's size, on the last 30
    // days (a one-day warm-up left the first timed export 10 % behind the next ones, its
    // heap still growing, in a run of this bench).
    const lastMonth = encodeURIComponent(
      JSON.stringify({ day: { gte: lastDay - 29 * DAY, lte: lastDay } }),
    );
    await download(
      `${api.url}/api/v0/charges/export/?select_filters=${lastMonth}`,
      auth,
      api.pid,
      'warm-up csv',
    );
    // One untimed pass first: whichever side read the year first would pay for reading it
    // from disk (a 14 s COPY then 8 s once cached, in a smoke run).
    log(JSON.stringify(await copyFloor(pool, yearStatement, copyLabel('warm-up, not counted'))));
    // The floor brackets the uncompressed exports (COPY, csv, ndjson, COPY): a change in the
    // machine's load during them weighs on both sides.
    floor.push(await copyFloor(pool, yearStatement, copyLabel('before the exports')));
    log(JSON.stringify(floor[0]));
    for (const format of ['csv', 'ndjson']) {
      const run = await download(exportUrl(format), auth, api.pid, `a year, ${format}`);
      log(JSON.stringify(run));
      exports.push(run);
    }
    floor.push(await copyFloor(pool, yearStatement, copyLabel('after them')));
    log(JSON.stringify(floor[1]));
    // Compression on (the client asks) against off (the runs above), in the same run.
    for (const encoding of ['gzip', 'br'] as const) {
      const run = await download(
        exportUrl('csv'),
        auth,
        api.pid,
        `a year, csv, ${encoding}`,
        0,
        encoding,
      );
      log(JSON.stringify(run));
      exports.push(run);
    }
    // A client that stops 20 ms after every chunk it gets (a slow link), on 30 days: the
    // cursor must wait for it rather than buffer the range in the api.
    const month = encodeURIComponent(
      JSON.stringify({ day: { gte: lastDay - 29 * DAY, lte: lastDay } }),
    );
    const slow = await download(
      `${api.url}/api/v0/charges/export/?select_filters=${month}`,
      auth,
      api.pid,
      '30 days, csv, reader pausing 20 ms per chunk',
      20,
    );
    log(JSON.stringify(slow));
    exports.push(slow);

    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (const period of ['month', 'week', 'day'] as StatementPeriod[]) {
      for (const groupBy of ['type', 'endpoint', 'workergroup', 'label'] as StatementGrouping[]) {
        const url = `${api.url}/api/v0/charges/summary/?select_filters=${filters}&period=${period}&group_by=${groupBy}`;
        const fetchOnce = () =>
          new Promise<number>((resolve, reject) =>
            get(url, { headers: auth, agent }, (response) => {
              let body = '';
              response.on('data', (chunk: Buffer) => (body += chunk.toString()));
              response.on('end', () => resolve(body.length));
            }).on('error', reject),
          );
        const statement = statementSumsStatement(heavy, {
          gte,
          lte: lastDay,
          categories: null,
          period,
          groupBy,
        });
        const size = await fetchOnce();
        const http: number[] = [];
        const sql: number[] = [];
        for (let i = 0; i < REPEAT; i++) {
          http.push(await timed(fetchOnce));
          sql.push(await timed(() => pool.query(statement.text, statement.values)));
        }
        statements.push(
          `| ${period} | ${groupBy} | ${(size / 1024).toFixed(1)} | ${percentile(sql, 50).toFixed(1)} | ` +
            `${percentile(http, 50).toFixed(1)} | ${percentile(http, 95).toFixed(1)} |`,
        );
      }
    }
    agent.destroy();
    context =
      `Heavy user ${heavy} (${rows[0].contracts.toLocaleString('en')} contracts), range ` +
      `${new Date(gte * 1000).toISOString().slice(0, 10)} to ${new Date(lastDay * 1000).toISOString().slice(0, 10)} ` +
      `(365 days; the dataset's charges cover its last 120).`;
  } finally {
    await stopAll();
    await pool.end();
  }
  const report = [
    `Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench:billing\` on ${machine()}; ` +
      `load average ${loadAtStart} at the start, ${loadAverage()} at the end. ${context}`,
    '',
    '| Export | rows | MB on the wire | MB decoded | seconds | rows/s | rows/s / COPY | MB/s (wire) | first byte ms | api RSS before MiB | api RSS peak MiB | growth MiB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...[...floor, ...exports].map((run) => exportRow(run, pooledRate(floor))),
    '',
    ...copyChecks(exports, floor),
    '',
    `| Statement period | group_by | body KiB | SQL p50 ms | HTTP p50 ms | HTTP p95 ms |`,
    '|---|---|---:|---:|---:|---:|',
    ...statements,
  ].join('\n');
  process.stdout.write(`${report}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`billing benchmark failed: ${(error as Error).stack ?? String(error)}\n`);
    void stopAll().finally(() => process.exit(1));
  },
);
