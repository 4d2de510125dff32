/**
 * `npm run bench:billing`: the charges export and statement for a year of the heavy user
 * of a seed:demo dataset (1,000,000 contracts; see bench/charges.bench.ts, which seeds it).
 * Export: rows/s, MB/s, time to the first byte and the api's RSS growth (sampled from
 * /proc every 20 ms) per format, uncompressed and compressed (gzip, br: the bytes on the
 * wire against the decoded ones), and 30 days for a client that reads slowly (the
 * cursor must wait for it: RSS stays flat). Statement: HTTP and SQL latency per period
 * and grouping. Prints a markdown report. Not part of `npm test`.
 *
 * Environment (all optional):
 *   BENCH_DATABASE_URL  postgres://postgres@127.0.0.1:5432/gpumarket_bench (must hold the dataset)
 *   BENCH_REDIS_URL     redis://127.0.0.1:6379/10
 *   BENCH_REPEAT        20 statement requests per case
 */
import { Agent, get } from 'node:http';
import { join } from 'node:path';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import { Pool } from 'pg';
import { statementSumsStatement } from '@app/billing/infrastructure/persistence/charge-statement.sql';
import { StatementGrouping, StatementPeriod } from '@app/billing/domain/charge-statement';
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
    const filters = encodeURIComponent(JSON.stringify({ day: { gte, lte: lastDay } }));
    const exportUrl = (format: string) =>
      `${api.url}/api/v0/charges/export/?select_filters=${filters}&format=${format}`;
    // Warm-up: code paths, pool connections and the plan, on a one-day range.
    const oneDay = encodeURIComponent(JSON.stringify({ day: { gte: lastDay, lte: lastDay } }));
    await download(
      `${api.url}/api/v0/charges/export/?select_filters=${oneDay}`,
      auth,
      api.pid,
      'warm-up csv',
    );
    for (const format of ['csv', 'ndjson']) {
      const run = await download(exportUrl(format), auth, api.pid, `a year, ${format}`);
      log(JSON.stringify(run));
      exports.push(run);
    }
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
    '| Export | rows | MB on the wire | MB decoded | seconds | rows/s | MB/s (wire) | first byte ms | api RSS before MiB | api RSS peak MiB | growth MiB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...exports.map(
      (run) =>
        `| ${run.label} | ${run.rows.toLocaleString('en')} | ${(run.bytes / 1e6).toFixed(1)} | ${(run.decodedBytes / 1e6).toFixed(1)} | ${run.seconds.toFixed(1)} | ` +
        `${Math.round(run.rows / run.seconds).toLocaleString('en')} | ${(run.bytes / 1e6 / run.seconds).toFixed(1)} | ` +
        `${run.firstByteMs.toFixed(0)} | ${run.rssBefore.toFixed(0)} | ${run.rssPeak.toFixed(0)} | ${(run.rssPeak - run.rssBefore).toFixed(1)} |`,
    ),
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
