/**
 * `npm run bench:compare -- <dist-a> <dist-b> [<name>=]<path> ...`: the effect of a change,
 * measured in one run. Two builds of the api (folders built with `tsc -p
 * tsconfig.build.json --outDir <dir>` and `tsc-alias`, `node_modules` linked in) run on the
 * same database and Redis; each path is asked of both in alternating slices (A B B A ...),
 * after checking that both answer it with the same bytes, and the run prints, per path and
 * concurrency, each side's p50, requests per second and CPU per request (the serving
 * process's user + system time) with B's ratios to A, each path under its name when it is
 * given one (`small-page=/api/v0/charges/?...`). Not part of `npm test`.
 *
 * Environment (all optional):
 *   BENCH_DATABASE_URL  postgres://postgres@127.0.0.1:5432/gpumarket_bench (a migrated
 *                       database, e.g. the one `npm run bench:charges` seeds)
 *   BENCH_REDIS_URL     redis://127.0.0.1:6379/10
 *   BENCH_USER_ID       the user whose API key asks (default: the charges bench's heavy user)
 *   BENCH_CONCURRENCY   1,16
 *   BENCH_SECONDS       16 seconds per side, path and concurrency, in 8 slices
 */
import { Agent } from 'node:http';
import { join, resolve } from 'node:path';
import { Pool } from 'pg';
import { assertSameBytes, httpFetcher, sampleLoop, Samples, summarize } from './charges-measure';
import {
  assertLoopback,
  benchServerEnv,
  cpuMs,
  loadAverage,
  log,
  machine,
  runManage,
  Server,
  startServer,
  stopAll,
} from './processes';

const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/gpumarket_bench';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/10';
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? '1,16').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 16);
const SLICES = 8;
const HEAVY_EMAIL = 'demo-1@demo.gpumarket.test';

interface Side {
  name: string;
  server: Server;
  samples: Samples[];
  cpuMs: number;
}

async function userId(pool: Pool): Promise<number> {
  if (process.env.BENCH_USER_ID) return Number(process.env.BENCH_USER_ID);
  const { rows } = await pool.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [
    HEAVY_EMAIL,
  ]);
  if (!rows[0]) throw new Error(`no ${HEAVY_EMAIL}: set BENCH_USER_ID or seed with bench:charges`);
  return rows[0].id;
}

/** One slice of a side: the loop's latencies and the CPU its server spent meanwhile. */
async function slice(side: Side, work: () => Promise<unknown>, c: number, seconds: number) {
  const before = cpuMs(side.server.pid);
  side.samples.push(await sampleLoop(work, c, seconds, 10));
  side.cpuMs += cpuMs(side.server.pid) - before;
}

const ratio = (b: number, a: number) => `${(b / a).toFixed(3)} x`;

/** `name=/path` or `/path` (named by itself). */
function namedPath(argument: string): { name: string; path: string } {
  const at = argument.indexOf('=/');
  return at > 0
    ? { name: argument.slice(0, at), path: argument.slice(at + 1) }
    : { name: argument, path: argument };
}

async function main(): Promise<void> {
  const [distA, distB, ...named] = process.argv.slice(2);
  if (!distA || !distB || named.length === 0)
    throw new Error('usage: bench:compare -- <dist-a> <dist-b> [<name>=]<path> ...');
  assertLoopback('BENCH_DATABASE_URL', DATABASE_URL);
  assertLoopback('BENCH_REDIS_URL', REDIS_URL);
  log(`load average at start: ${loadAverage()}`);
  // Migrations are the database's own; neither build applies any.
  const env = benchServerEnv(DATABASE_URL, REDIS_URL, { MIGRATIONS_RUN: 'false' });
  const pool = new Pool({ connectionString: DATABASE_URL, max: 1 });
  const agent = new Agent({ keepAlive: true, maxSockets: Math.max(...CONCURRENCY) });
  try {
    const created = await runManage(['apikey:create', '--user', String(await userId(pool))], env);
    const fetchBody = httpFetcher(agent, { Authorization: `Bearer ${String(created.api_key)}` });
    const sides: Side[] = [];
    for (const [name, dist] of [
      ['A', distA],
      ['B', distB],
    ]) {
      const script = join(resolve(dist), 'apps/api/src/main.js');
      const server = await startServer(`api ${name}`, script, env, 'api listening');
      sides.push({ name, server, samples: [], cpuMs: 0 });
    }
    console.log(`${machine()}; A ${distA}, B ${distB}; ${SECONDS} s per side in ${SLICES} slices`);
    for (const { name, path } of named.map(namedPath)) {
      const [a, b] = await Promise.all(sides.map((side) => fetchBody(side.server.url + path)));
      assertSameBytes(path, a, b);
      for (const c of CONCURRENCY) {
        for (const side of sides) Object.assign(side, { samples: [], cpuMs: 0 });
        for (let i = 0; i < SLICES; i += 1) {
          for (const side of i % 2 === 0 ? sides : [...sides].reverse())
            await slice(side, () => fetchBody(side.server.url + path), c, SECONDS / SLICES);
        }
        const [ma, mb] = sides.map((side) => summarize(side.samples));
        const [ca, cb] = [sides[0].cpuMs / ma.requests, sides[1].cpuMs / mb.requests];
        console.log(
          `- ${name} c${c}: p50 ${ma.p50.toFixed(2)} / ${mb.p50.toFixed(2)} ms (${ratio(mb.p50, ma.p50)}); ` +
            `req/s ${ma.rps.toFixed(0)} / ${mb.rps.toFixed(0)} (${ratio(mb.rps, ma.rps)}); ` +
            `CPU ms/req ${ca.toFixed(3)} / ${cb.toFixed(3)} (${ratio(cb, ca)})`,
        );
      }
    }
    log(`load average at end: ${loadAverage()}`);
  } finally {
    agent.destroy();
    await pool.end();
    await stopAll();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
