import { execFileSync, execSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  Access,
  AccessGuard,
  IpAllowlist,
  parsePermissionDocument,
  Permissions,
  Principal,
} from '@app/platform';
import { testPrincipal } from '@app/platform/testing';
import { writeMarkdown } from './docs';
import { LoadResult, LoadTarget, measure, mergeRuns } from './load-measure';
import { flushRedis, resetDatabase } from './load-setup';
import { benchServerEnv, DIST, loadAverage, log, machine, Server, startServer } from './processes';

/**
 * The access guard's cost (the `## Access guard` section of docs/performance.md), measured
 * in one run against the same api without it: the commit before the guard, built into a
 * private folder (LOAD_BASELINE_DIST, else built here from LOAD_BASELINE_REF, by default
 * the parent of the commit that added libs/platform/src/http/access.guard.ts), started on
 * a database of its own. `GET /api/v0/users/current/` (full key on both; a scoped key on
 * the new api) and `POST /api/v0/endptjobs/` (the audit entry a write now waits for), in
 * alternating slices, so drift in the machine's background load weighs on both alike.
 * Then the guard alone, in process, per call.
 */

const CONCURRENCY = [1, 16];
const SLICES = 8;
const ITERATIONS = 1_000_000;
const START = '<!-- access-bench:start -->';
const END = '<!-- access-bench:end -->';

/** The repository holding this build (dist/bench/.. is dist, its parent the checkout). */
const REPO = dirname(DIST);

function baselineRef(): string {
  if (process.env.LOAD_BASELINE_REF) return process.env.LOAD_BASELINE_REF;
  const added = execFileSync(
    'git',
    ['log', '--diff-filter=A', '--format=%H', '--', 'libs/platform/src/http/access.guard.ts'],
    { cwd: REPO },
  )
    .toString()
    .trim()
    .split('\n')
    .pop();
  if (!added)
    throw new Error('no commit adds the access guard: set LOAD_BASELINE_REF or LOAD_BASELINE_DIST');
  return `${added}^`;
}

/** `git archive` of `ref` into a temporary folder, built there with this checkout's packages. */
function buildBaseline(ref: string): { dist: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'gpumkt-access-baseline-'));
  log(`building the baseline (${ref}) in ${root}`);
  execSync(`git archive --format=tar ${ref} | tar -x -C ${root}`, { cwd: REPO, stdio: 'inherit' });
  symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'));
  execSync('npm run build --silent', { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  return {
    dist: join(root, 'dist'),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

async function manageIn(
  dist: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<Record<string, unknown>> {
  const out = execFileSync(process.execPath, [join(dist, 'apps/manage/src/main.js'), ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(out.toString()) as Record<string, unknown>;
}

async function post(url: string, key: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

interface Side {
  label: string;
  server: Server;
  target: LoadTarget;
}

/** Every side at each concurrency, in SLICES alternating slices of `seconds / SLICES` each. */
async function alternate(sides: Side[], seconds: number): Promise<Map<Side, LoadResult[]>> {
  const results = new Map<Side, LoadResult[]>(sides.map((side) => [side, []]));
  for (const side of sides) await measure(side.target, 16, 2, side.server.pid);
  for (const connections of CONCURRENCY) {
    const slices = new Map<Side, LoadResult[]>(sides.map((side) => [side, []]));
    for (let i = 0; i < SLICES; i += 1) {
      for (const side of i % 2 === 0 ? sides : [...sides].reverse())
        slices
          .get(side)!
          .push(await measure(side.target, connections, seconds / SLICES, side.server.pid));
    }
    for (const side of sides) {
      const run = mergeRuns(slices.get(side)!);
      log(
        `  ${side.label} c${connections}: p50 ${run.p50.toFixed(3)} ms, ${run.requests} requests, ${run.non2xx} non-2xx`,
      );
      results.get(side)!.push(run);
    }
  }
  return results;
}

const ms = (value: number) => value.toFixed(3);

function comparison(
  name: string,
  subject: Side,
  reference: Side,
  results: Map<Side, LoadResult[]>,
): string[] {
  return results.get(subject)!.map((run, index) => {
    const base = results.get(reference)![index];
    const cpu = (r: LoadResult) => r.cpuMs / r.requests;
    return (
      `| ${name} | ${run.connections} | ${subject.label} | ${reference.label} | ${ms(run.p50)} | ${ms(base.p50)} | ` +
      `${(run.p50 - base.p50 >= 0 ? '+' : '') + ms(run.p50 - base.p50)} | ${ms(run.p99)} / ${ms(base.p99)} | ` +
      `${ms(cpu(run))} / ${ms(cpu(base))} | ${run.requests} / ${base.requests} | ${run.non2xx + base.non2xx} |`
    );
  });
}

/** The guard alone: canActivate on one request, ITERATIONS times, ns per call. */
function guardAlone(): Array<[string, number]> {
  class Routes {
    @Access('misc', 'api.endptjobs.update')
    update(): void {}
  }
  const guard = new AccessGuard(new Reflector(), { used: () => undefined });
  const permissions = (document: unknown): Permissions => {
    const parsed = parsePermissionDocument(document);
    if (!parsed.ok) throw new Error(parsed.problem);
    return parsed.permissions;
  };
  const allowlist = IpAllowlist.parse(['10.0.0.0/8', '203.0.113.0/24']);
  if (!allowlist.ok) throw new Error(allowlist.problem);
  const principal = testPrincipal;
  const cases: Array<[string, Principal]> = [
    ['full key', principal({})],
    ['scoped key, whole category', principal({ permissions: permissions({ api: { misc: {} } }) })],
    [
      'scoped key, route with a constraint (id eq 42)',
      principal({
        permissions: permissions({
          api: { misc: { 'api.endptjobs.update': { constraints: { id: { eq: 42 } } } } },
        }),
      }),
    ],
    ['full key with a 2-range ip_whitelist', principal({ ipAllowlist: allowlist.allowlist })],
  ];
  const handler = Routes.prototype.update;
  return cases.map(([name, who]) => {
    const request = {
      principal: who,
      params: { id: '42' },
      body: {},
      query: {},
      ip: '203.0.113.9',
    };
    const context = {
      getHandler: () => handler,
      switchToHttp: () => ({ getRequest: () => request }),
    } as unknown as ExecutionContext;
    for (let i = 0; i < 10_000; i += 1) guard.canActivate(context);
    const started = process.hrtime.bigint();
    for (let i = 0; i < ITERATIONS; i += 1) guard.canActivate(context);
    return [name, Number(process.hrtime.bigint() - started) / ITERATIONS];
  });
}

/** The `create endpoint` body of the public client. */
const CREATE_BODY = JSON.stringify({ client_id: 'me', endpoint_name: 'guard-bench' });

export async function measureAccessGuard(options: {
  api: Server;
  env: NodeJS.ProcessEnv;
  databaseUrl: string;
  redisUrl: string;
  /** Per side and concurrency. */
  seconds: number;
  docs: string;
}): Promise<void> {
  const began = Date.now();
  const loadAtStart = loadAverage();
  const { api, env } = options;
  const baseDatabase = process.env.LOAD_BASELINE_DATABASE_URL ?? `${options.databaseUrl}_base`;
  const given = process.env.LOAD_BASELINE_DIST;
  const ref = given ? null : baselineRef();
  const built = given ? null : buildBaseline(ref!);
  const baselineDist = given ?? built!.dist;
  try {
    if (!existsSync(join(baselineDist, 'apps/api/src/main.js')))
      throw new Error(`${baselineDist} holds no built api`);
    await resetDatabase(baseDatabase);
    await flushRedis(options.redisUrl);
    // As the api under test runs (productEnv): its delivery worker in-process too.
    const baseEnv = benchServerEnv(baseDatabase, options.redisUrl, { RUN_WORKER: 'true' });
    const baseline = await startServer(
      'baseline api',
      join(baselineDist, 'apps/api/src/main.js'),
      baseEnv,
      'api listening',
    );
    try {
      const email = `guard-${Date.now()}@bench.test`;
      const newKey = (await manageIn(DIST, ['user:create', '--email', email, '--verified'], env))
        .api_key as string;
      const baseKey = (
        await manageIn(baselineDist, ['user:create', '--email', email, '--verified'], baseEnv)
      ).api_key as string;
      const scoped = (
        await post(`${api.url}/api/v0/auth/apikeys/`, newKey, {
          name: 'bench',
          permissions: { api: { user_read: {}, misc: {} } },
        })
      ).key as string;
      const read = (server: Server, key: string): LoadTarget => ({
        url: `${server.url}/api/v0/users/current/`,
        headers: { Authorization: `Bearer ${key}` },
      });
      const write = (server: Server, key: string): LoadTarget => ({
        url: `${server.url}/api/v0/endptjobs/`,
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: CREATE_BODY,
      });
      const withGuard: Side = { label: 'guard, full key', server: api, target: read(api, newKey) };
      const withScoped: Side = {
        label: 'guard, scoped key',
        server: api,
        target: read(api, scoped),
      };
      const without: Side = {
        label: 'no guard',
        server: baseline,
        target: read(baseline, baseKey),
      };
      log(
        `access guard: GET /api/v0/users/current/, ${options.seconds} s per side and concurrency`,
      );
      const reads = await alternate([withGuard, without, withScoped], options.seconds);
      const writeNew: Side = { label: 'guard + audit', server: api, target: write(api, newKey) };
      const writeOld: Side = {
        label: 'neither',
        server: baseline,
        target: write(baseline, baseKey),
      };
      log('access guard: POST /api/v0/endptjobs/');
      const writes = await alternate([writeNew, writeOld], options.seconds);
      log('access guard alone, in process');
      const alone = guardAlone();
      for (const [name, ns] of alone) log(`  ${name}: ${ns.toFixed(0)} ns per call`);

      const body = [
        `Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench\` ` +
          `(bench/access-guard.ts, \`LOAD_STEPS=access\` runs it alone) on ${machine()}; load average ` +
          `(1 / 5 / 15 min) ${loadAtStart} at the start, ${loadAverage()} at the end. Two api processes on the same ` +
          `cores, PostgreSQL and Redis: this build, and the build of ${given ? `\`${given}\`` : `\`${ref}\` (the commit before the guard)`} ` +
          `on a database of its own. ${options.seconds} s per side and concurrency in ${SLICES} alternating slices, ` +
          "after a 2 s warm-up; latencies over 2xx answers (ms); CPU = the serving process's user + system " +
          'time per request (ms).',
        '',
        '| Request | c | measured | against | p50 | p50 against | p50 difference | p99 / p99 against | CPU ms/req / against | requests | non-2xx |',
        '| --- | --: | --- | --- | --: | --: | --: | --: | --: | --: | --: |',
        ...comparison('GET /api/v0/users/current/', withGuard, without, reads),
        ...comparison('GET /api/v0/users/current/', withScoped, withGuard, reads),
        ...comparison('POST /api/v0/endptjobs/', writeNew, writeOld, writes),
        '',
        `The guard alone (\`AccessGuard.canActivate\`, in process, ${ITERATIONS.toLocaleString('en-US')} calls on one request):`,
        '',
        '| Credential | ns per call |',
        '| --- | --: |',
        ...alone.map(([name, ns]) => `| ${name} | ${ns.toFixed(0)} |`),
        '',
        `Total ${Math.round((Date.now() - began) / 1000)} s.`,
      ].join('\n');
      process.stdout.write(`\n${body}\n`);
      if (options.docs !== '-') {
        await writeAccessSection(options.docs, body);
        log(`written to ${options.docs}`);
      }
    } finally {
      await baseline.stop();
    }
  } finally {
    built?.cleanup();
  }
}

/** Replaces the generated part of `## Access guard` (between its markers), keeping the reading notes. */
async function writeAccessSection(path: string, body: string): Promise<void> {
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  const section = `${START}\n${body.trim()}\n${END}`;
  const updated =
    start >= 0 && end > start
      ? text.slice(0, start) + section + text.slice(end + END.length)
      : `${text.trimEnd()}\n\n## Access guard\n\n${section}\n`;
  await writeMarkdown(path, updated);
}
