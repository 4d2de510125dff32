import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runManage, spawnApi, SpawnedProcess } from '@test/support/api';
import { freePort } from '@test/support/own-redis';
import { CONDITION_TIMEOUT_MS } from '@test/support/wait';

/** Rounds of the test; each runs every command and request below at once. */
const ROUNDS = 20;
/** Requests to the api per round, while the round's manage commands run. */
const REQUESTS_PER_ROUND = 200;
/** How many of those are in flight at once. */
const REQUESTS_IN_FLIGHT = 8;

const DAY = 1767225600; // 2026-01-01 UTC
/**
 * How long one manage command may take before it counts as hung. Each start loads the
 * whole module graph (~2.5 s of CPU); eight start at once on two cores, and a loaded CI
 * machine stretched one round's commands past 45 s with nothing hung: the bound is for
 * finding a hang (a lock never given back), not for measuring speed.
 */
const MANAGE_TIMEOUT_MS = 4 * CONDITION_TIMEOUT_MS;
const OWNER = { id: 9951, email: 'embedded-owner@example.test', key: 'embedded-owner-key-9951' };
const SEED = ['--users', '3', '--contracts', '40', '--days', '4', '--last-day', '2026-01-10'];

interface Outcome {
  what: string;
  ok: boolean;
  detail?: string;
}

/**
 * The embedded database is one PGlite session that every connection takes turns at. This
 * runs what a developer does at once against the embedded api: eight `manage` commands as
 * separate processes (seeding, a fixtures load, four user creations, a key creation, an
 * outbox read: each its own connections through the api's socket) while the api serves a
 * stream of reads and writes over its own pool. Nothing may fail, and afterwards the data
 * must be exactly what was asked for: no statement may have run with another's parameters.
 */
describe('embedded mode: concurrent manage commands and api requests', () => {
  let parent: string;
  let env: Record<string, string>;
  let api: SpawnedProcess;
  let fixtures: string;
  let baselineReport: unknown;
  const createdUsers: Array<{ email: string; key: string }> = [];
  const ownerKeys: string[] = [];
  const endpointNames: string[] = [];
  const seedSummaries: unknown[] = [];

  const headers = (key: string) => ({
    Authorization: `Bearer ${key}`,
    'Content-Type': 'application/json',
  });
  const reportPath = `/api/v0/charges/?select_filters=${encodeURIComponent(
    JSON.stringify({ day: { gte: DAY, lte: DAY + 3 * 86400 } }),
  )}`;

  beforeAll(async () => {
    parent = mkdtempSync(join(tmpdir(), 'gpumarket-embedded-concurrency-'));
    env = {
      EMBEDDED: 'true',
      EMBEDDED_DATA_DIR: join(parent, 'pglite'),
      // As on a machine with no services: nothing may reach for a real one.
      DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/nowhere`,
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
      RATE_LIMITS: 'off',
    };
    fixtures = join(parent, 'fixtures.json');
    writeFileSync(
      fixtures,
      JSON.stringify({
        users: [{ id: OWNER.id, email: OWNER.email, verified: true, api_key: OWNER.key }],
        contracts: [
          {
            id: 99501,
            user_id: OWNER.id,
            kind: 'instance',
            start: DAY,
            end: DAY + 3 * 86400,
            label: 'concurrency',
            // Three days of GPU time, 2.5 a day.
            charges: [0, 1, 2].map((n) => ({
              day: DAY + n * 86400,
              type: 'gpu',
              quantity: '10',
              unit: 'hours',
              rate: '0.25',
              amount: '2.5',
            })),
          },
        ],
      }),
    );
    api = await spawnApi(env, 100_000);
    const loaded = await runManage(['fixtures:load', fixtures], env);
    if (loaded.code !== 0) throw new Error(`fixtures:load failed: ${loaded.stderr}`);
    const report = await fetch(`${api.url}${reportPath}`, { headers: headers(OWNER.key) });
    expect(report.status).toBe(200);
    baselineReport = await report.json();
  }, 150_000);

  afterAll(async () => {
    if (api && api.child.exitCode === null && api.child.signalCode === null)
      await api.stop('SIGKILL');
    rmSync(parent, { recursive: true, force: true });
  });

  /** One manage command; its stdout must be one JSON document. */
  async function manage(args: string[], what: string): Promise<Outcome & { json?: unknown }> {
    const result = await runManage(args, env, MANAGE_TIMEOUT_MS);
    const parsed = result.json as Record<string, unknown> | null;
    const ok = result.code === 0 && parsed !== null && !('unparsable' in parsed);
    // Killed at the timeout, a command leaves no exit code and often no output: say so.
    const detail =
      result.code === null
        ? `no exit within ${MANAGE_TIMEOUT_MS} ms (killed) ${result.stderr.trim()}`.trim()
        : result.stderr.trim();
    return { what, ok, json: parsed, detail: ok ? undefined : detail };
  }

  /** One api request, answered as expected or recorded as a failure. */
  async function request(index: number, round: number): Promise<Outcome> {
    const kind = index % 4;
    // A request that hangs fails the round instead of stalling it.
    const fetch = (url: string, init: RequestInit) =>
      globalThis.fetch(url, { ...init, signal: AbortSignal.timeout(CONDITION_TIMEOUT_MS) });
    try {
      if (kind === 0) {
        const me = await fetch(`${api.url}/api/v0/users/current/`, {
          headers: headers(OWNER.key),
        });
        const body = (await me.json()) as { id?: number; email?: string };
        const ok = me.status === 200 && body.id === OWNER.id && body.email === OWNER.email;
        return { what: 'GET users/current', ok, detail: `${me.status} ${JSON.stringify(body)}` };
      }
      if (kind === 1) {
        const report = await fetch(`${api.url}${reportPath}`, { headers: headers(OWNER.key) });
        const body = await report.json();
        const ok = report.status === 200 && JSON.stringify(body) === JSON.stringify(baselineReport);
        return { what: 'GET charges', ok, detail: `${report.status} ${JSON.stringify(body)}` };
      }
      if (kind === 2) {
        const name = `conc-r${round}-${index}`;
        const created = await fetch(`${api.url}/api/v0/endptjobs/`, {
          method: 'POST',
          headers: headers(OWNER.key),
          body: JSON.stringify({ endpoint_name: name, target_util: 0.8 }),
        });
        const body = (await created.json()) as { success?: boolean; result?: number };
        const ok = created.status === 200 && body.success === true;
        if (ok) endpointNames.push(name);
        return { what: 'POST endptjobs', ok, detail: `${created.status} ${JSON.stringify(body)}` };
      }
      const status = await fetch(`${api.url}/api/v0/tfa/status/`, { headers: headers(OWNER.key) });
      const body = await status.json();
      return {
        what: 'GET tfa/status',
        ok: status.status === 200,
        detail: `${status.status} ${JSON.stringify(body)}`,
      };
    } catch (error) {
      // fetch says only "fetch failed"; the cause says how (refused, reset, closed).
      const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
      const how = cause ? ` (${[cause.code, cause.message].filter(Boolean).join(': ')})` : '';
      return { what: `request ${index}`, ok: false, detail: `${(error as Error).message}${how}` };
    }
  }

  /** Keeps REQUESTS_IN_FLIGHT requests going until `total` were sent and `until` settled. */
  async function requestStream(round: number, until: Promise<unknown>): Promise<Outcome[]> {
    let settled = false;
    void until.finally(() => (settled = true));
    const outcomes: Outcome[] = [];
    let next = 0;
    const worker = async () => {
      while (next < REQUESTS_PER_ROUND || !settled) {
        outcomes.push(await request(next++, round));
      }
    };
    await Promise.all(Array.from({ length: REQUESTS_IN_FLIGHT }, worker));
    return outcomes;
  }

  it(
    `runs ${ROUNDS} rounds of 8 manage commands and ${REQUESTS_PER_ROUND}+ api requests at once, with no failure`,
    async () => {
      const failures: Outcome[] = [];
      let requests = 0;
      for (let round = 1; round <= ROUNDS; round++) {
        const emails = [1, 2, 3, 4].map((n) => `conc-r${round}-u${n}@example.test`);
        const commands = Promise.all([
          manage(['seed:demo', ...SEED], 'seed:demo'),
          manage(['fixtures:load', fixtures], 'fixtures:load'),
          ...emails.map((email) =>
            manage(['user:create', '--email', email, '--verified'], `user:create ${email}`),
          ),
          manage(['apikey:create', '--user', String(OWNER.id)], 'apikey:create'),
          manage(['outbox:list', '--to', OWNER.email], 'outbox:list'),
        ]);
        const [outcomes, served] = await Promise.all([commands, requestStream(round, commands)]);
        requests += served.length;
        failures.push(
          ...[...outcomes, ...served]
            .filter((outcome) => !outcome.ok)
            .map(({ what, detail }) => ({ what: `round ${round}: ${what}`, ok: false, detail })),
        );
        const [seeded, , ...rest] = outcomes;
        const { seconds: _seconds, ...counts } = (seeded.json ?? {}) as { seconds?: number };
        seedSummaries.push(counts);
        rest.slice(0, 4).forEach((created, n) => {
          const key = (created.json as { api_key?: string } | undefined)?.api_key;
          if (key) createdUsers.push({ email: emails[n], key });
        });
        const ownerKey = (rest[4].json as { api_key?: string } | undefined)?.api_key;
        if (ownerKey) ownerKeys.push(ownerKey);
        if (failures.length > 0) break;
      }
      // The first failures, if any, with the round they broke: enough to see the pattern,
      // and what the api said last.
      if (failures.length > 0) console.error(`api output:\n${api.output.slice(-40).join('\n')}`);
      expect(failures.slice(0, 5)).toEqual([]);
      expect(requests).toBeGreaterThanOrEqual(ROUNDS * REQUESTS_PER_ROUND);
    },
    // 160 manage processes start on a machine that may be busy elsewhere.
    1_800_000,
  );

  it('left exactly the data that was asked for', async () => {
    expect(createdUsers).toHaveLength(ROUNDS * 4);
    for (const { email, key } of createdUsers) {
      const me = await fetch(`${api.url}/api/v0/users/current/`, { headers: headers(key) });
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ email });
    }
    expect(ownerKeys).toHaveLength(ROUNDS);
    for (const key of ownerKeys) {
      const me = await fetch(`${api.url}/api/v0/users/current/`, { headers: headers(key) });
      expect(await me.json()).toMatchObject({ id: OWNER.id });
    }
    const listed = await fetch(`${api.url}/api/v0/endptjobs/`, { headers: headers(OWNER.key) });
    const { results } = (await listed.json()) as { results: Array<{ endpoint_name: string }> };
    expect(results.map((group) => group.endpoint_name).sort()).toEqual([...endpointNames].sort());
    expect(endpointNames.length).toBeGreaterThanOrEqual((ROUNDS * REQUESTS_PER_ROUND) / 4);
    // The same options seed the same dataset, however busy the database was meanwhile.
    expect(seedSummaries).toHaveLength(ROUNDS);
    expect(new Set(seedSummaries.map((summary) => JSON.stringify(summary))).size).toBe(1);
    const report = await fetch(`${api.url}${reportPath}`, { headers: headers(OWNER.key) });
    expect(await report.json()).toEqual(baselineReport);
  });
});
