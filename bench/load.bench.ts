/**
 * `npm run bench`: a bounded load benchmark of the real api (spawned from the same build as
 * this file, RATE_LIMITS=off, on its own database and Redis index) with autocannon: the
 * charges page, 2FA status, TOTP login, volume unlist and endpoint-group create, each at
 * concurrency 1, 16 and 64; the same charges page from a plain node:http + pg baseline
 * (bench/baseline-charges-server.ts) for the api/baseline ratio; then a soak of the charges
 * page that must keep the api's RSS flat (growth under 10%); then the 2FA status and the
 * charges page with tracing off and on (bench/tracing-compare.ts). Results go to the
 * `## Load` and `## Tracing` sections of docs/performance.md. Not part of `npm test`.
 *
 * Environment (all optional):
 *   LOAD_DATABASE_URL  postgres://postgres@127.0.0.1:5432/gpumarket_bench_load (dropped and recreated)
 *   LOAD_REDIS_URL     redis://127.0.0.1:6379/10 (flushed)
 *   LOAD_SECONDS       5    seconds per measurement
 *   SOAK_SECONDS       300  soak duration (0 skips the soak)
 *   LOAD_TOTP_POOL     3000 users with TOTP enabled; bounds each TOTP login run
 *   LOAD_SEED          "users,contracts,days" for seed:demo, default 100,20000,30
 *   LOAD_DEADLINE_MINUTES  30, after which the run stops whatever it is doing
 *   LOAD_DOCS          docs/performance.md under the working directory ("-" to skip writing)
 *   LOAD_STEPS         "load,access,tracing": the load runs and soak; the access guard's cost
 *                      against the api without it (bench/access-guard.ts); tracing off vs on
 *                      (bench/tracing-compare.ts). Any of them alone or together
 *   LOAD_GUARD_SECONDS 20   seconds per side and concurrency of the access guard's comparison
 *   LOAD_BASELINE_DIST / LOAD_BASELINE_REF / LOAD_BASELINE_DATABASE_URL  see bench/access-guard.ts
 *   LOAD_BEFORE_DIST   the dist/ of another build (e.g. the commit before tracing), run as a
 *                      third api, "today", in the tracing comparison
 */
import { isDeepStrictEqual } from 'node:util';
import { Agent, get } from 'node:http';
import { join } from 'node:path';
import { Pool } from 'pg';
import autocannon from 'autocannon';
import { measureAccessGuard } from './access-guard';
import { httpGetter } from './charges-measure';
import { LoadResult, LoadTarget, measure, mergeRuns } from './load-measure';
import { chargesPagePath } from './public-client-paths';
import {
  assertLoopback,
  deadline,
  DIST,
  loadAverage,
  log,
  machine,
  rssMiB,
  runManage,
  Server,
  startServer,
  stopAll,
  benchServerEnv,
} from './processes';
import {
  OperationResult,
  ratioTable,
  resultsTable,
  SoakSummary,
  soakText,
  writeLoadSection,
} from './load-report';
import {
  compareTracing,
  startOtlpSink,
  TracingVariant,
  tracingTable,
  writeTracingSection,
} from './tracing-compare';
import {
  enableTotpPool,
  flushRedis,
  forgetTotpUse,
  loadFixtures,
  resetDatabase,
  totpNow,
} from './load-setup';

const DATABASE_URL =
  process.env.LOAD_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/gpumarket_bench_load';
const REDIS_URL = process.env.LOAD_REDIS_URL ?? 'redis://127.0.0.1:6379/10';
const SECONDS = positive('LOAD_SECONDS', 5);
const SOAK_SECONDS = Number(process.env.SOAK_SECONDS ?? 300);
const TOTP_POOL = positive('LOAD_TOTP_POOL', 3000);
const [SEED_USERS, SEED_CONTRACTS, SEED_DAYS] = (process.env.LOAD_SEED ?? '100,20000,30')
  .split(',')
  .map(Number);
const DEADLINE_MINUTES = positive('LOAD_DEADLINE_MINUTES', 30);
const DOCS = process.env.LOAD_DOCS ?? join(process.cwd(), 'docs', 'performance.md');
const STEPS = new Set(
  (process.env.LOAD_STEPS ?? 'load,access,tracing').split(',').map((s) => s.trim()),
);
const GUARD_SECONDS = positive('LOAD_GUARD_SECONDS', 20);
const CONCURRENCY = [1, 16, 64];
const WARMUP_SECONDS = 2;
/**
 * Pause after a run before the next one's setup: autocannon stops the clock with requests
 * still in flight, and the api finishes them (a TOTP login landing after forgetTotpUse
 * would spend its user's step again and make the next run's code for that user a replay).
 */
const SETTLE_MS = 1_000;
const LISTINGS = 64;
const PAGE_LIMIT = 100;
const DAY = 86_400;
const SOAK_CONNECTIONS = 16;
const BEFORE_DIST = process.env.LOAD_BEFORE_DIST;
const TRACING_CONCURRENCY = [1, 16];
const SOAK_SAMPLE_MS = 5_000;
/** Slices per side when the api and the baseline are measured against each other. */
const PAIR_SLICES = 4;

function positive(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

/** The environment shared by the api and `manage`, so both derive the same key fingerprints. */
function productEnv(): NodeJS.ProcessEnv {
  // The in-process worker delivers the email codes of the TOTP setup (outbox provider).
  return benchServerEnv(DATABASE_URL, REDIS_URL, { RUN_WORKER: 'true' });
}

/** Encoded like the public client: quote_plus of Python's json.dumps. */
function chargesPath(gte: number, lte: number): string {
  return chargesPagePath({ gte, lte, latestFirst: true, limit: PAGE_LIMIT, format: 'table' });
}

/** The `create endpoint` body of the public client: every option, unset ones null. */
const CREATE_GROUP_BODY = JSON.stringify({
  client_id: 'me',
  min_load: null,
  min_cold_load: null,
  target_util: null,
  cold_mult: null,
  cold_workers: null,
  max_workers: null,
  endpoint_name: 'load-bench',
  max_queue_time: null,
  target_queue_time: null,
  inactivity_timeout: null,
  autoscaler_instance: 'prod',
});

interface Operation {
  name: string;
  server: Server;
  target: () => LoadTarget;
  /** Runs before every run (warm-up included) of this operation. */
  before?: () => Promise<void>;
  note?: string;
}

function summary(run: LoadResult): string {
  const statuses = Object.entries(run.statuses)
    .map(([status, n]) => `${status}x${n}`)
    .join(' ');
  return (
    `c${run.connections}: p50 ${run.p50.toFixed(2)} ms, p99 ${run.p99.toFixed(2)} ms, ` +
    `${run.rps.toFixed(0)} req/s, ${run.requests} requests [${statuses}], ` +
    `${run.socketErrors} socket errors, RSS ${run.rssEnd.toFixed(0)} MiB` +
    (run.samples.length ? `; first errors: ${run.samples.join(' | ')}` : '')
  );
}

async function runOperation(op: Operation): Promise<OperationResult> {
  log(`${op.name} (${op.server.name}): warm-up ${WARMUP_SECONDS} s`);
  await op.before?.();
  await measure(op.target(), 16, WARMUP_SECONDS, op.server.pid);
  const runs: LoadResult[] = [];
  for (const connections of CONCURRENCY) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    await op.before?.();
    const run = await measure(op.target(), connections, SECONDS, op.server.pid);
    log(`  ${summary(run)}`);
    runs.push(run);
  }
  return { name: op.name, target: targetOf(op), runs, note: op.note };
}

function targetOf(op: Operation): 'api' | 'baseline' {
  return op.server.name === 'api' ? 'api' : 'baseline';
}

/**
 * Two operations measured against each other: at each concurrency, alternating slices
 * (A B B A ...) of SECONDS in all per side, so drift in the machine's background load
 * weighs on both alike and their ratio holds within the run.
 */
async function runPair(a: Operation, b: Operation): Promise<[OperationResult, OperationResult]> {
  for (const op of [a, b]) {
    log(`${op.name} (${op.server.name}): warm-up ${WARMUP_SECONDS} s`);
    await measure(op.target(), 16, WARMUP_SECONDS, op.server.pid);
  }
  const runs = new Map<Operation, LoadResult[]>([
    [a, []],
    [b, []],
  ]);
  for (const connections of CONCURRENCY) {
    const slices = new Map<Operation, LoadResult[]>([
      [a, []],
      [b, []],
    ]);
    for (let i = 0; i < PAIR_SLICES; i += 1) {
      for (const op of i % 2 === 0 ? [a, b] : [b, a]) {
        const slice = await measure(op.target(), connections, SECONDS / PAIR_SLICES, op.server.pid);
        slices.get(op)!.push(slice);
      }
    }
    for (const op of [a, b]) {
      const run = mergeRuns(slices.get(op)!);
      log(`  ${op.server.name} ${summary(run)}`);
      runs.get(op)!.push(run);
    }
  }
  return [
    { name: a.name, target: targetOf(a), runs: runs.get(a)!, note: a.note },
    { name: b.name, target: targetOf(b), runs: runs.get(b)!, note: b.note },
  ];
}

/** The api's V8 heap in use (MiB), from its Prometheus default metrics; NaN if unreadable. */
function heapUsedMiB(metricsUrl: string | null): Promise<number> {
  if (!metricsUrl) return Promise.resolve(NaN);
  return new Promise((resolve) => {
    const req = get(`${metricsUrl}/metrics`, { timeout: 5_000 }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => {
        const match = /^nodejs_heap_size_used_bytes(?:\{[^}]*\})? (\S+)/m.exec(text);
        resolve(match ? Number(match[1]) / 1024 / 1024 : NaN);
      });
      res.on('error', () => resolve(NaN));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(NaN));
  });
}

async function soak(server: Server, target: LoadTarget): Promise<SoakSummary> {
  log(`soak: charges page at c${SOAK_CONNECTIONS} for ${SOAK_SECONDS} s`);
  const samples: SoakSummary['samples'] = [];
  const started = Date.now();
  let done = false;
  // One sample every SOAK_SAMPLE_MS from t = 0, at most one per period of the soak.
  const sampling = (async () => {
    for (let i = 0; i <= (SOAK_SECONDS * 1000) / SOAK_SAMPLE_MS && !done; i += 1) {
      const wait = started + i * SOAK_SAMPLE_MS - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (done) break;
      const sample = {
        t: Math.round((Date.now() - started) / 1000),
        rss: rssMiB(server.pid),
        heap: await heapUsedMiB(server.metricsUrl),
      };
      samples.push(sample);
      if (i % 6 === 0)
        log(
          `  soak ${sample.t} s: RSS ${sample.rss.toFixed(1)} MiB, heap ${sample.heap.toFixed(1)} MiB`,
        );
    }
  })();
  let result: LoadResult;
  try {
    result = await measure(target, SOAK_CONNECTIONS, SOAK_SECONDS, server.pid);
  } finally {
    done = true;
    await sampling;
  }
  if (samples.length < 2) throw new Error(`soak: only ${samples.length} RSS samples`);
  // Averages over the first and the last minute (halves when the soak is shorter than 2 min).
  const window = Math.min(60, SOAK_SECONDS / 2);
  const avg = (values: number[]) => values.reduce((x, y) => x + y, 0) / values.length;
  const first = samples.filter((s) => s.t <= window);
  const last = samples.filter((s) => s.t >= SOAK_SECONDS - window);
  const firstAvg = avg(first.map((s) => s.rss));
  const lastAvg = avg(last.map((s) => s.rss));
  const growth = (lastAvg - firstAvg) / firstAvg;
  return {
    seconds: SOAK_SECONDS,
    connections: SOAK_CONNECTIONS,
    samples,
    firstAvg,
    lastAvg,
    firstHeapAvg: avg(first.map((s) => s.heap)),
    lastHeapAvg: avg(last.map((s) => s.heap)),
    window,
    growth,
    pass: growth < 0.1,
    result,
  };
}

/** The api's page and the baseline's must hold the same entries, or the ratio means nothing. */
async function checkSamePage(
  api: Server,
  baseline: Server,
  path: string,
  apiKey: string,
): Promise<number> {
  const agent = new Agent({ keepAlive: false });
  try {
    const fromApi = await httpGetter(agent, { Authorization: `Bearer ${apiKey}` })(
      `${api.url}${path}`,
    );
    const fromBaseline = await httpGetter(agent, {})(`${baseline.url}${path}`);
    for (const key of ['count', 'total', 'results'])
      if (!isDeepStrictEqual(fromApi[key], fromBaseline[key]))
        throw new Error(`baseline and api disagree on ${key} of the charges page`);
    if ((fromApi.count as number) === 0)
      throw new Error('the charges page is empty: nothing seeded?');
    return fromApi.total as number;
  } finally {
    agent.destroy();
  }
}

async function main(): Promise<number> {
  const began = Date.now();
  const loadAtStart = loadAverage();
  log(`load average at start: ${loadAtStart}`);
  deadline(DEADLINE_MINUTES);
  assertLoopback('LOAD_DATABASE_URL', DATABASE_URL);
  assertLoopback('LOAD_REDIS_URL', REDIS_URL);
  if (![SEED_USERS, SEED_CONTRACTS, SEED_DAYS].every((n) => Number.isInteger(n) && n > 0))
    throw new Error('LOAD_SEED must be three positive integers: users,contracts,days');
  if (!Number.isFinite(SOAK_SECONDS) || SOAK_SECONDS < 0)
    throw new Error('SOAK_SECONDS must be >= 0');
  const env = productEnv();

  log(`resetting ${DATABASE_URL.replace(/\/\/[^@]*@/, '//')} and ${REDIS_URL}`);
  await resetDatabase(DATABASE_URL);
  await flushRedis(REDIS_URL);

  const api = await startServer('api', join(DIST, 'apps/api/src/main.js'), env, 'api listening');
  log(`api pid ${api.pid} at ${api.url}, RSS ${rssMiB(api.pid).toFixed(0)} MiB`);
  const pool = new Pool({ connectionString: DATABASE_URL, max: 4 });
  try {
    if (STEPS.has('access'))
      await measureAccessGuard({
        api,
        env,
        databaseUrl: DATABASE_URL,
        redisUrl: REDIS_URL,
        seconds: GUARD_SECONDS,
        docs: DOCS,
      });
    if (!STEPS.has('load') && !STEPS.has('tracing')) return 0;
    log(`seed:demo --users ${SEED_USERS} --contracts ${SEED_CONTRACTS} --days ${SEED_DAYS}`);
    const seeded = await runManage(
      [
        'seed:demo',
        '--users',
        String(SEED_USERS),
        '--contracts',
        String(SEED_CONTRACTS),
        '--days',
        String(SEED_DAYS),
      ],
      env,
      30 * 60_000,
    );
    log(`seeded: ${JSON.stringify(seeded)}`);
    const heavyUserId = seeded.heavy_user_id as number;
    const lastDay = seeded.last_day as number;
    const { api_key: chargesKey } = (await runManage(
      ['apikey:create', '--user', String(heavyUserId)],
      env,
    )) as {
      api_key: string;
    };
    // Only the load runs log in by TOTP; the other parts need one user with a method (the
    // 2FA status route's), and enabling 3,000 took a minute of every run of theirs.
    const totpUsers = STEPS.has('load') ? TOTP_POOL : 1;
    log(`fixtures: ${totpUsers} users for TOTP, ${LISTINGS} volume listings`);
    const fixtures = await loadFixtures(env, totpUsers, LISTINGS);
    const secrets = await enableTotpPool(pool, api.url, fixtures.totpUsers, 8);
    const totpIds = fixtures.totpUsers.map((u) => u.id);

    const baseline = await startServer(
      'baseline',
      join(DIST, 'bench/baseline-charges-server.js'),
      { ...process.env, DATABASE_URL, BASELINE_USER_ID: String(heavyUserId), PORT: '0' },
      'baseline listening',
    );
    const chargesPage = chargesPath(lastDay - (SEED_DAYS - 1) * DAY, lastDay);
    const chargesTotal = await checkSamePage(api, baseline, chargesPage, chargesKey);
    log(`charges page: ${PAGE_LIMIT} of ${chargesTotal} entries, identical from api and baseline`);

    const json = (apiKey: string) => ({
      Authorization: `Bearer ${apiKey}`,
      'content-type': 'application/json',
    });
    const statusUser = fixtures.totpUsers[0];
    const operations: Operation[] = [
      {
        name: 'GET /api/v0/charges/',
        server: api,
        target: () => ({
          url: `${api.url}${chargesPage}`,
          headers: { Authorization: `Bearer ${chargesKey}` },
        }),
      },
      {
        name: 'GET /api/v0/charges/',
        server: baseline,
        target: () => ({ url: `${baseline.url}${chargesPage}` }),
      },
      {
        name: 'GET /api/v0/tfa/status/',
        server: api,
        target: () => ({
          url: `${api.url}/api/v0/tfa/status/`,
          headers: { Authorization: `Bearer ${statusUser.apiKey}` },
        }),
      },
      {
        name: 'POST /api/v0/tfa/ (TOTP login)',
        server: api,
        // Every request is a different user with a fresh code; each run stops before the
        // pool runs out (autocannon may build one unsent request per connection).
        before: () => forgetTotpUse(pool, totpIds),
        target: () => {
          let next = 0;
          return {
            url: `${api.url}/api/v0/tfa/`,
            method: 'POST',
            maxRequests: TOTP_POOL - 2 * 64,
            setupRequest: (request: autocannon.Request) => {
              const index = next % TOTP_POOL;
              next += 1;
              return {
                ...request,
                headers: json(fixtures.totpUsers[index].apiKey),
                body: JSON.stringify({ tfa_method: 'totp', code: totpNow(secrets[index]) }),
              };
            },
          };
        },
        note: `one pool user per request (${TOTP_POOL} users, none repeats within a run)`,
      },
      {
        name: 'POST /api/v0/volumes/unlist',
        server: api,
        // The same owner's listings in turn: repeated unlists of an owned listing (idempotent).
        target: () => {
          let next = 0;
          return {
            url: `${api.url}/api/v0/volumes/unlist`,
            method: 'POST',
            setupRequest: (request: autocannon.Request) => {
              const id = fixtures.listingIds[next % fixtures.listingIds.length];
              next += 1;
              return {
                ...request,
                headers: json(fixtures.volumesUser.apiKey),
                body: JSON.stringify({ id }),
              };
            },
          };
        },
        note: `${LISTINGS} listings of one owner in turn`,
      },
      {
        name: 'POST /api/v0/endptjobs/ (create)',
        server: api,
        target: () => ({
          url: `${api.url}/api/v0/endptjobs/`,
          method: 'POST',
          headers: json(fixtures.groupsUser.apiKey),
          body: CREATE_GROUP_BODY,
        }),
      },
    ];

    const tracingRun = STEPS.has('tracing')
      ? () =>
          tracingComparison(env, [
            {
              name: operations[0].name,
              target: (server) => ({
                ...operations[0].target(),
                url: `${server.url}${chargesPage}`,
              }),
            },
            {
              name: operations[2].name,
              target: (server) => ({
                ...operations[2].target(),
                url: `${server.url}/api/v0/tfa/status/`,
              }),
            },
          ])
      : null;
    if (!STEPS.has('load')) {
      await baseline.stop();
      await tracingRun?.();
      return 0;
    }
    const [apiCharges, baselineCharges, ...others] = operations;
    const results: OperationResult[] = await runPair(apiCharges, baselineCharges);
    await baseline.stop();
    for (const op of others) results.push(await runOperation(op));

    const soakSummary =
      SOAK_SECONDS > 0
        ? await soak(api, {
            url: `${api.url}${chargesPage}`,
            headers: { Authorization: `Bearer ${chargesKey}` },
          })
        : null;
    const table = resultsTable(results);
    const ratios = ratioTable(results[0], results[1]);
    const loadAtEnd = loadAverage();
    process.stdout.write(`${table}\n\nCharges page, api/baseline:\n\n${ratios}\n`);
    if (soakSummary) process.stdout.write(`\nSoak:\n\n${soakText(soakSummary)}\n`);

    const body = [
      `Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench\` ` +
        `(bench/load.bench.ts) on ${machine()}; load average (1 / 5 / 15 min) ${loadAtStart} at the ` +
        `start, ${loadAtEnd} at the end (the end figure includes this run's own load). The api runs as one process (\`RATE_LIMITS=off\`, \`LOG_LEVEL=warn\`, delivery worker in-process) on ` +
        `its own database; autocannon runs in the benchmark process on the same cores, as do ` +
        `PostgreSQL and Redis. ${SECONDS} s per measurement after a ${WARMUP_SECONDS} s warm-up at c16 ` +
        `(the api's and the baseline's charges page in alternating slices, A B B A, ${SECONDS} s per side); ` +
        `c = connections; latencies in ms over 2xx answers; RSS = the serving process's VmRSS; ` +
        `CPU ms/req = that process's user + system CPU time during the run per request.`,
      '',
      `Data: \`seed:demo --users ${SEED_USERS} --contracts ${SEED_CONTRACTS} --days ${SEED_DAYS}\`; the charges ` +
        `page is page 1 (limit ${PAGE_LIMIT}, table format, latest first) of the heavy user's ${SEED_DAYS}-day ` +
        `report (${chargesTotal} entries). TOTP login: ${operations[3].note}. Unlist: ${operations[4].note}. ` +
        `2FA status: a user with one TOTP method. Create: the public client's \`create endpoint\` body.`,
      '',
      resultsTable(results),
      '',
      '### Charges page: api / baseline',
      '',
      'The baseline (bench/baseline-charges-server.ts) is plain `node:http` + `pg` running the ' +
        "product's statements for the same page and returning the same entries (checked before " +
        'measuring), without auth, validation, rate limiting, logging or a framework.',
      '',
      ratios,
      '',
      '### Soak',
      '',
      soakSummary ? soakText(soakSummary) : '_Skipped (SOAK_SECONDS=0)._',
      '',
      `One run on a machine whose other work is not controlled: numbers are noisy and ` +
        `the ratios above are from this single run. Total run ${Math.round((Date.now() - began) / 1000)} s.`,
    ].join('\n');
    if (DOCS !== '-') {
      await writeLoadSection(DOCS, body);
      log(`written to ${DOCS}`);
    }
    await tracingRun?.();
    if (soakSummary && !soakSummary.pass) {
      log(`soak FAILED: RSS grew ${(soakSummary.growth * 100).toFixed(1)}% (limit 10%)`);
      return 2;
    }
    return 0;
  } finally {
    await pool.end();
    await stopAll();
  }
}

/**
 * The same build with tracing off (the api above) and on (exporting every span, OTLP/HTTP
 * protobuf, to a local receiver), plus LOAD_BEFORE_DIST's api when given, in alternating
 * slices; written to the `## Tracing` section.
 */
async function tracingComparison(
  env: NodeJS.ProcessEnv,
  operations: Array<{ name: string; target: (server: Server) => LoadTarget }>,
): Promise<void> {
  const sink = await startOtlpSink();
  const main = join(DIST, 'apps/api/src/main.js');
  const traced = { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_SERVICE_NAME: 'bench-api' };
  const variants: TracingVariant[] = [];
  try {
    // Fresh processes for every variant, started alike (none has served the set-up).
    variants.push({
      label: 'off',
      server: await startServer('api-off', main, env, 'api listening'),
    });
    if (BEFORE_DIST)
      variants.push({
        label: 'today',
        server: await startServer(
          'api-before',
          join(BEFORE_DIST, 'apps/api/src/main.js'),
          env,
          'api listening',
        ),
      });
    variants.push({
      label: 'on 10%',
      server: await startServer(
        'api-sampled',
        main,
        {
          ...traced,
          OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
          OTEL_TRACES_SAMPLER_ARG: '0.1',
        },
        'api listening',
      ),
    });
    variants.push({
      label: 'on',
      server: await startServer('api-traced', main, traced, 'api listening'),
    });
    const loadAtStart = loadAverage();
    const rows = await compareTracing(
      variants,
      operations,
      TRACING_CONCURRENCY,
      SECONDS,
      PAIR_SLICES,
    );
    const table = tracingTable(
      rows,
      variants.map((v) => v.label),
    );
    process.stdout.write(`\nTracing:\n\n${table}\n`);
    const body = [
      `Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench\` ` +
        `(bench/load.bench.ts, bench/tracing-compare.ts) on ${machine()}; load average ${loadAtStart} at the start ` +
        `of this part, ${loadAverage()} at its end. Fresh apis on the same database and Redis, one process each ` +
        `(\`RATE_LIMITS=off\`, \`LOG_LEVEL=warn\`): **off**, this build with no \`OTEL_*\` setting (the ` +
        `SDK not loaded)` +
        (BEFORE_DIST
          ? `; **today**, the build before tracing existed (\`LOAD_BEFORE_DIST\`)`
          : '') +
        `; **on 10%**, this build as the deploy files ship it (\`parentbased_traceidratio\`, 0.1); ` +
        `**on**, every request traced and every span exported. Both export OTLP/HTTP protobuf to a ` +
        `receiver in the benchmark process (${sink.requests} export requests, ` +
        `${(sink.bytes / 1024 / 1024).toFixed(1)} MiB received in all). ` +
        `Each row alternates the variants in slices (A B C D D C B A ...), ${SECONDS} s per variant; ` +
        `CPU ms/req is the serving process's user + system CPU time per request; the change columns ` +
        `compare two variants of the same row.`,
      '',
      table,
    ].join('\n');
    if (DOCS !== '-') {
      await writeTracingSection(DOCS, body);
      log(`tracing section written to ${DOCS}`);
    }
  } finally {
    for (const { server } of variants) await server.stop();
    await sink.close();
  }
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping servers`);
    void stopAll().finally(() => process.exit(130));
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`load benchmark failed: ${(error as Error).stack ?? String(error)}\n`);
    void stopAll().finally(() => process.exit(1));
  },
);
