/**
 * `npm run bench:budgets`: what budgets cost billing's write path. Contracts with their
 * daily charges are written through `manage fixtures:load` (ContractRepository.replace, the
 * path whose commit evaluates the owner's budgets) for two users of one fresh database:
 * **off**, a user without budgets, and **on**, a user with three (a month budget, a week
 * budget scoped to a label, a day budget whose 50 % threshold the writes cross, so the alert
 * path runs too). The variants alternate (off on on off ...), each load a new batch of
 * contracts; a load of an empty document measures manage's own start, subtracted from each.
 * Prints charges written per second per variant and their ratio. Not part of `npm test`.
 *
 * Environment (all optional):
 *   BENCH_ADMIN_URL     postgres://postgres@127.0.0.1:5432/postgres (creates and drops the database)
 *   BENCH_REDIS_URL     redis://127.0.0.1:6379/10
 *   BENCH_CONTRACTS     300 contracts per load
 *   BENCH_DAYS          7 days of gpu and disk charges per contract
 *   BENCH_ROUNDS        3 (each round loads off, on, on, off)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import {
  assertLoopback,
  benchServerEnv,
  deadline,
  DIST,
  loadAverage,
  log,
  machine,
  runManage,
  startServer,
  stopAll,
} from './processes';

const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/10';
const CONTRACTS = Number(process.env.BENCH_CONTRACTS ?? 300);
const DAYS = Number(process.env.BENCH_DAYS ?? 7);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DATABASE = 'gpumarket_bench_budgets';
const DAY = 86_400;
const USERS = {
  off: { id: 7101, email: 'budgets-off@bench.gpumarket.test', key: 'bench-budgets-off-7101' },
  on: { id: 7102, email: 'budgets-on@bench.gpumarket.test', key: 'bench-budgets-on-7102' },
};
type Variant = keyof typeof USERS;

/** Today's UTC midnight: the writes fall into the budgets' current periods. */
const TODAY = Math.floor(Date.now() / 1000 / DAY) * DAY;

let nextContractId = 1;

/** A fixtures document of `CONTRACTS` new contracts of `userId`, DAYS x 2 charges each. */
function batch(userId: number): { document: object; charges: number } {
  const contracts = [];
  for (let n = 0; n < CONTRACTS; n++) {
    const id = nextContractId++;
    const first = TODAY - (DAYS - 1) * DAY;
    const charges = [];
    for (let d = 0; d < DAYS; d++) {
      for (const type of ['gpu', 'disk']) {
        charges.push({
          day: first + d * DAY,
          type,
          quantity: '1',
          unit: 'hours',
          rate: '0.0125',
          amount: '0.0125',
        });
      }
    }
    contracts.push({
      id,
      user_id: userId,
      kind: 'instance',
      start: first,
      end: TODAY + DAY,
      label: n % 2 === 0 ? 'train' : 'serve',
      template_id: null,
      endpoint_id: null,
      workergroup_id: null,
      charges,
    });
  }
  return { document: { contracts }, charges: CONTRACTS * DAYS * 2 };
}

async function timedManage(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const started = process.hrtime.bigint();
  await runManage(args, env, 600_000);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  deadline(30);
  assertLoopback('BENCH_ADMIN_URL', ADMIN_URL);
  assertLoopback('BENCH_REDIS_URL', REDIS_URL);
  const databaseUrl = new URL(ADMIN_URL);
  databaseUrl.pathname = `/${DATABASE}`;
  const env = benchServerEnv(databaseUrl.toString(), REDIS_URL);
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const folder = mkdtempSync(join(tmpdir(), 'gpumarket-bench-budgets-'));
  const loadAtStart = loadAverage();
  const written: Record<Variant, { charges: number; ms: number }> = {
    off: { charges: 0, ms: 0 },
    on: { charges: 0, ms: 0 },
  };
  let startMs = 0;
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    await runManage(['migration:run'], env, 600_000);
    const usersFile = join(folder, 'users.json');
    writeFileSync(
      usersFile,
      JSON.stringify({
        users: Object.values(USERS).map((user) => ({
          id: user.id,
          email: user.email,
          verified: true,
          api_key: user.key,
        })),
      }),
    );
    await runManage(['fixtures:load', usersFile], env);

    // The budgets, through the api as a user makes them.
    const api = await startServer('api', join(DIST, 'apps/api/src/main.js'), env, 'api listening');
    // What the "on" loads charge today in all: CONTRACTS x 2 charge types x 0.0125 each.
    const todaysSpend = ROUNDS * 2 * CONTRACTS * 2 * 0.0125;
    const budgets = [
      { name: 'month', amount: '100000', period: 'month' },
      { name: 'training week', amount: '50000', period: 'week', label: 'train' },
      // Crossed at 50 % half-way through the run, so an alert is written and mailed.
      {
        name: 'day',
        amount: (todaysSpend * 1.5).toFixed(3),
        period: 'day',
        thresholds: [50, 300],
      },
    ];
    for (const body of budgets) {
      const response = await fetch(`${api.url}/api/v0/budgets/`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${USERS.on.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (response.status !== 200)
        throw new Error(
          `POST /api/v0/budgets/ answered ${response.status}: ${await response.text()}`,
        );
    }
    await stopAll();

    const emptyFile = join(folder, 'empty.json');
    writeFileSync(emptyFile, '{}');
    const starts: number[] = [];
    for (let i = 0; i < 3; i++) starts.push(await timedManage(['fixtures:load', emptyFile], env));
    startMs = median(starts);
    log(`manage start and empty load: ${starts.map((ms) => ms.toFixed(0)).join(', ')} ms`);

    for (let round = 0; round < ROUNDS; round++) {
      for (const variant of ['off', 'on', 'on', 'off'] as Variant[]) {
        const { document, charges } = batch(USERS[variant].id);
        const file = join(folder, `load-${round}-${variant}-${nextContractId}.json`);
        writeFileSync(file, JSON.stringify(document));
        const ms = await timedManage(['fixtures:load', file], env);
        written[variant].charges += charges;
        written[variant].ms += ms - startMs;
        log(`round ${round + 1} ${variant}: ${charges} charges in ${ms.toFixed(0)} ms`);
      }
    }
    const alerts = new Client({ connectionString: databaseUrl.toString() });
    await alerts.connect();
    const { rows } = await alerts.query<{ count: string }>(`SELECT count(*) FROM budget_alerts`);
    await alerts.end();
    log(`alerts written: ${rows[0].count}`);
  } finally {
    await stopAll();
    rmSync(folder, { recursive: true, force: true });
    await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
  const rate = (variant: Variant) => (written[variant].charges / written[variant].ms) * 1000;
  const report = [
    `Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench:budgets\` on ${machine()}; ` +
      `load average ${loadAtStart} at the start, ${loadAverage()} at the end. ${ROUNDS * 2} loads per variant of ` +
      `${CONTRACTS} contracts x ${DAYS} days x 2 charge types, alternating; manage's start (${startMs.toFixed(0)} ms, ` +
      `the median of three empty loads) subtracted from each.`,
    '',
    '| budgets | charges written | seconds | charges/s |',
    '|---|---:|---:|---:|',
    ...(['off', 'on'] as Variant[]).map(
      (variant) =>
        `| ${variant} | ${written[variant].charges.toLocaleString('en')} | ${(written[variant].ms / 1000).toFixed(1)} | ${Math.round(rate(variant)).toLocaleString('en')} |`,
    ),
    '',
    `Budgets on cost ${(((rate('off') - rate('on')) / rate('off')) * 100).toFixed(1)} % of the write rate.`,
  ].join('\n');
  process.stdout.write(`${report}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`budgets benchmark failed: ${(error as Error).stack ?? String(error)}\n`);
    void stopAll().finally(() => process.exit(1));
  },
);
