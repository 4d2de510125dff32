/**
 * `npm run bench:flood`: one user floods `PUT /api/v0/endptjobs/{id}/` on one row with
 * 1,000 concurrent connections (autocannon, in its own process) while another user, from
 * another address, keeps making ordinary requests (its group list and an update of its own
 * group) one after another. Reports the other user's latency percentiles against a quiet
 * baseline, every status the flood got, and readiness during the flood. Runs twice: with
 * the per-address connection cap off (the flood reaches the api as 1,000 requests at once,
 * as through a proxy, so only the per-user write cap protects the pool) and with the
 * defaults. Results go to the `## Flood` section of docs/performance.md. Not part of
 * `npm test`.
 *
 * Environment (all optional):
 *   FLOOD_DATABASE_URL  postgres://postgres@127.0.0.1:5432/gpumarket_bench_flood (dropped and recreated)
 *   FLOOD_REDIS_URL     redis://127.0.0.1:6379/11 (flushed)
 *   FLOOD_SECONDS       30    flood duration per scenario
 *   FLOOD_CONNECTIONS   1000
 *   FLOOD_SCENARIOS     2     how many of the scenarios below to run, in order
 *   FLOOD_DOCS          docs/performance.md under the working directory ("-" to skip writing)
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { writeMarkdown } from './docs';
import { flushRedis, resetDatabase } from './load-setup';
import {
  assertLoopback,
  deadline,
  loadAverage,
  log,
  machine,
  runManage,
  Server,
  startServer,
  stopAll,
  DIST,
  benchServerEnv,
} from './processes';

const DATABASE_URL =
  process.env.FLOOD_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/gpumarket_bench_flood';
const REDIS_URL = process.env.FLOOD_REDIS_URL ?? 'redis://127.0.0.1:6379/11';
const SECONDS = Number(process.env.FLOOD_SECONDS ?? 30);
const CONNECTIONS = Number(process.env.FLOOD_CONNECTIONS ?? 1000);
const BASELINE_SECONDS = 5;
const DOCS = process.env.FLOOD_DOCS ?? join(process.cwd(), 'docs', 'performance.md');
const START = '<!-- flood:start -->';
const END = '<!-- flood:end -->';
/** The other user's client address: the per-address cap must not be what separates them. */
const OTHER_CLIENT_ADDRESS = '127.0.0.2';

interface Scenario {
  name: string;
  env: Record<string, string>;
}

const ALL_SCENARIOS: Scenario[] = [
  {
    name: 'per-address cap off (the flood reaches the api whole)',
    env: { HTTP_MAX_CONNECTIONS_PER_ADDRESS: '0' },
  },
  { name: 'defaults (256 connections per address)', env: {} },
];
/** FLOOD_SCENARIOS=1 runs only the first. */
const SCENARIOS = ALL_SCENARIOS.slice(
  0,
  Number(process.env.FLOOD_SCENARIOS ?? ALL_SCENARIOS.length),
);

interface Latencies {
  count: number;
  p50: number;
  p99: number;
  max: number;
  statuses: Record<string, number>;
}

interface ScenarioResult {
  scenario: string;
  quiet: Latencies;
  flooded: Latencies;
  flood: { requests: number; statuses: Record<string, number>; errors: number; timeouts: number };
  readiness: { samples: number; notReady: number };
}

function productEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return benchServerEnv(DATABASE_URL, REDIS_URL, extra);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** One request over `agent`; resolves with its status and wall time in ms. */
function timed(
  agent: Agent,
  method: string,
  url: string,
  apiKey: string,
  body?: string,
): Promise<{ status: number; ms: number }> {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const req = request(
      url,
      {
        method,
        agent,
        headers: {
          Authorization: `Bearer ${apiKey}`,
          ...(body ? { 'Content-Type': 'application/json' } : {}),
        },
        timeout: 30_000,
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: Number(process.hrtime.bigint() - started) / 1e6,
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () =>
      resolve({ status: 0, ms: Number(process.hrtime.bigint() - started) / 1e6 }),
    );
    req.end(body);
  });
}

/** The other user's requests, one after another, until `stopAt`. */
async function otherUser(
  server: Server,
  user: { apiKey: string; groupId: number },
  stopAt: number,
): Promise<Latencies> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1, localAddress: OTHER_CLIENT_ADDRESS });
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  let i = 0;
  while (Date.now() < stopAt) {
    const result =
      i++ % 2 === 0
        ? await timed(agent, 'GET', `${server.url}/api/v0/endptjobs/`, user.apiKey)
        : await timed(
            agent,
            'PUT',
            `${server.url}/api/v0/endptjobs/${user.groupId}/`,
            user.apiKey,
            JSON.stringify({ min_load: i % 100 }),
          );
    times.push(result.ms);
    statuses[result.status] = (statuses[result.status] ?? 0) + 1;
  }
  agent.destroy();
  times.sort((a, b) => a - b);
  return {
    count: times.length,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    max: times[times.length - 1] ?? NaN,
    statuses,
  };
}

/** autocannon in a process of its own, so its event loop does not delay the measurement. */
function flood(
  url: string,
  apiKey: string,
): Promise<{
  requests: number;
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
}> {
  const bin = join(DIST, '..', 'node_modules', 'autocannon', 'autocannon.js');
  const args = [
    bin,
    '-c',
    String(CONNECTIONS),
    '-d',
    String(SECONDS),
    '-m',
    'PUT',
    '-H',
    `Authorization=Bearer ${apiKey}`,
    '-H',
    'Content-Type=application/json',
    '-b',
    JSON.stringify({ min_load: 3 }),
    '-t',
    '30',
    '-j',
    url,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      try {
        const result = JSON.parse(stdout) as {
          requests: { total: number };
          errors: number;
          timeouts: number;
          statusCodeStats?: Record<string, { count: number }>;
        };
        const statuses: Record<string, number> = {};
        for (const [status, stats] of Object.entries(result.statusCodeStats ?? {}))
          statuses[status] = stats.count;
        resolve({
          requests: result.requests.total,
          statuses,
          errors: result.errors,
          timeouts: result.timeouts,
        });
      } catch {
        reject(new Error(`autocannon exited ${code} without JSON: ${stdout.slice(0, 300)}`));
      }
    });
  });
}

async function sampleReadiness(server: Server, stopAt: number) {
  const agent = new Agent({ keepAlive: false, localAddress: OTHER_CLIENT_ADDRESS });
  let samples = 0;
  let notReady = 0;
  while (Date.now() < stopAt) {
    const result = await timed(agent, 'GET', `${server.url}/health/ready`, 'none');
    samples += 1;
    if (result.status !== 200) notReady += 1;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  return { samples, notReady };
}

async function createGroup(server: Server, apiKey: string, name: string): Promise<number> {
  const agent = new Agent();
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ endpoint_name: name });
    const req = request(
      `${server.url}/api/v0/endptjobs/`,
      {
        method: 'POST',
        agent,
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => {
          const parsed = JSON.parse(text) as { result?: number };
          if (res.statusCode !== 200 || !parsed.result)
            return reject(new Error(`create group: ${res.statusCode} ${text}`));
          resolve(parsed.result);
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function runScenario(scenario: Scenario): Promise<ScenarioResult> {
  log(`scenario: ${scenario.name}`);
  await resetDatabase(DATABASE_URL);
  await flushRedis(REDIS_URL);
  const env = productEnv(scenario.env);
  const server = await startServer('api', join(DIST, 'apps/api/src/main.js'), env, 'api listening');
  try {
    const created = async (tag: string) =>
      (await runManage(
        ['user:create', '--email', `flood-${tag}-${Date.now()}@bench.gpumarket.test`, '--verified'],
        env,
      )) as { id: number; api_key: string };
    const flooder = await created('flooder');
    const other = await created('other');
    const flooderGroup = await createGroup(server, flooder.api_key, 'flooded');
    const otherUserSeed = {
      apiKey: other.api_key,
      groupId: await createGroup(server, other.api_key, 'bystander'),
    };

    // Warm-up, then the quiet baseline of the other user.
    await otherUser(server, otherUserSeed, Date.now() + 1_000);
    const quiet = await otherUser(server, otherUserSeed, Date.now() + BASELINE_SECONDS * 1_000);

    const flooding = flood(`${server.url}/api/v0/endptjobs/${flooderGroup}/`, flooder.api_key);
    // autocannon needs a moment to open its connections; measure the flood's steady part.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const stopAt = Date.now() + (SECONDS - 4) * 1_000;
    const [flooded, readiness] = await Promise.all([
      otherUser(server, otherUserSeed, stopAt),
      sampleReadiness(server, stopAt),
    ]);
    const floodResult = await flooding;
    return { scenario: scenario.name, quiet, flooded, flood: floodResult, readiness };
  } finally {
    await server.stop();
  }
}

function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

function statusText(statuses: Record<string, number>): string {
  return Object.entries(statuses)
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ');
}

function report(results: ScenarioResult[]): string {
  const lines = [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}, load average ${loadAverage()}, ` +
      `with \`npm run bench:flood\`: ${CONNECTIONS} connections of one user flooding ` +
      `\`PUT /api/v0/endptjobs/{id}/\` on one row for ${SECONDS} s (autocannon), while another ` +
      `user on another address lists its groups and updates its own group, one request after ` +
      `another. Defaults otherwise (\`DATABASE_POOL_MAX\` 10, \`WRITE_CONCURRENCY_PER_USER\` 2).`,
    '',
    '| Scenario | Other user, quiet p50 / p99 | Other user, flooded p50 / p99 / max | Other user statuses (flooded) | Flood requests and statuses | Readiness during the flood |',
    '|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    lines.push(
      `| ${r.scenario} | ${ms(r.quiet.p50)} / ${ms(r.quiet.p99)} (${r.quiet.count} requests) | ` +
        `${ms(r.flooded.p50)} / ${ms(r.flooded.p99)} / ${ms(r.flooded.max)} (${r.flooded.count} requests) | ` +
        `${statusText(r.flooded.statuses)} | ${r.flood.requests}: ${statusText(r.flood.statuses)}; ` +
        `${r.flood.errors} connection errors, ${r.flood.timeouts} timeouts | ` +
        `${r.readiness.samples - r.readiness.notReady} of ${r.readiness.samples} samples ready |`,
    );
  }
  return lines.join('\n');
}

async function writeSection(body: string): Promise<void> {
  if (DOCS === '-') return;
  const section = `## Flood\n\n${START}\n${body.trim()}\n${END}\n`;
  let text = await readFile(DOCS, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start >= 0 && end > start) {
    const heading = text.lastIndexOf('## Flood', start);
    text = text.slice(0, heading >= 0 ? heading : start) + section + text.slice(end + END.length);
  } else {
    text = `${text.trimEnd()}\n\n${section}`;
  }
  await writeMarkdown(DOCS, text);
}

async function main(): Promise<void> {
  assertLoopback('FLOOD_DATABASE_URL', DATABASE_URL);
  assertLoopback('FLOOD_REDIS_URL', REDIS_URL);
  deadline(15);
  const results: ScenarioResult[] = [];
  for (const scenario of SCENARIOS) results.push(await runScenario(scenario));
  const text = report(results);
  process.stdout.write(`${text}\n${JSON.stringify(results, null, 2)}\n`);
  await writeSection(text);
}

main()
  .catch((error: unknown) => {
    log(String((error as Error).stack ?? error));
    process.exitCode = 1;
  })
  .finally(() => stopAll());
