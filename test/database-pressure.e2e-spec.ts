import { Client } from 'pg';
import { DataSource, QueryRunner } from 'typeorm';
import { createTestUser, spawnApi, startApi, TestApi, TestUser } from '@test/support/api';
import { TEST_DATABASE_URL } from '@test/support/test-env';
import { OwnRedis } from '@test/support/own-redis';
import { PostgresWithReplica } from '@test/support/postgres-replica';
import { enableTotp } from '@test/support/tfa';
import { updateMethod } from '@test/support/tfa-requests';

/** The start-up line that states the connection budget, parsed, if it was printed yet. */
const budgetLine = (output: string[]) =>
  output
    .join('\n')
    .split('\n')
    .map((line) => {
      try {
        return JSON.parse(line) as { level?: number; msg?: string };
      } catch {
        return {};
      }
    })
    .find((entry) => entry.msg?.startsWith('Database pool budget'));

/** The line may follow the listening line: wait for it on the output, not for a time. */
async function awaitBudgetLine(spawned: Awaited<ReturnType<typeof spawnApi>>) {
  for (;;) {
    const line = budgetLine(spawned.output);
    if (line) return line;
    if (spawned.child.exitCode !== null) throw new Error(spawned.output.join('\n'));
    await new Promise((resolve) => spawned.child.stdout!.once('data', resolve));
  }
}

/**
 * Database pressure is never a 500: a pool wait past DATABASE_POOL_WAIT_MS and a lock wait
 * past DATABASE_LOCK_TIMEOUT_MS are 503 service_unavailable with Retry-After; the writes one
 * user can flood admit WRITE_CONCURRENCY_PER_USER at a time per user, the rest are 429.
 * Load figures (a 1,000-way flood and another user's p99) come from `npm run bench:flood`.
 */
describe('database pressure', () => {
  let api: TestApi;
  let alice: TestUser;
  let bob: TestUser;
  let locker: Client;
  // A Redis of its own: this file's delivery worker must not take other files' jobs.
  let redis: OwnRedis;

  beforeAll(async () => {
    redis = await OwnRedis.start();
    api = await startApi({
      REDIS_URL: redis.url,
      DATABASE_POOL_MAX: '3',
      DATABASE_POOL_WAIT_MS: '300',
      DATABASE_STATEMENT_TIMEOUT_MS: '20000',
      DATABASE_LOCK_TIMEOUT_MS: '4000',
      WRITE_CONCURRENCY_PER_USER: '1',
      // The tests fill the three pool slots on purpose: no security-notice sweep may take one.
      TFA_NOTICE_RETRY_SECONDS: '3600',
    });
    alice = await createTestUser(api);
    bob = await createTestUser(api);
    locker = new Client({ connectionString: TEST_DATABASE_URL });
    await locker.connect();
  });
  afterAll(async () => {
    await locker.end();
    await api.close();
    await redis.stop();
  });

  const createGroup = async (user: TestUser): Promise<number> => {
    const response = await api
      .http()
      .post('/api/v0/endptjobs/')
      .set(user.auth)
      .send({ endpoint_name: `pressure-${user.id}` });
    expect(response.status).toBe(200);
    return response.body.result as number;
  };
  const update = (user: TestUser, id: number, minLoad: number) =>
    api.http().put(`/api/v0/endptjobs/${id}/`).set(user.auth).send({ min_load: minLoad });

  /** Holds row locks in a transaction of the test's own connection until `release`. */
  async function lockRows(sql: string, params: unknown[]): Promise<() => Promise<void>> {
    await locker.query('BEGIN');
    await locker.query(sql, params);
    return async () => {
      await locker.query('ROLLBACK');
    };
  }

  /** Waits until one of the api's connections waits on a lock: the request is in flight. */
  async function untilSomeoneWaitsOnALock(): Promise<void> {
    const probe = api.app.get(DataSource);
    for (;;) {
      const [row] = await probe.query(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if (row.waiting > 0) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  it('sets the statement and lock timeouts on every pooled connection', async () => {
    const dataSource = api.app.get(DataSource);
    const runners: QueryRunner[] = [];
    try {
      // All three of the pool's connections, so none escapes the check.
      for (let i = 0; i < 3; i++) {
        const runner = dataSource.createQueryRunner();
        await runner.connect();
        runners.push(runner);
      }
      for (const runner of runners) {
        expect(await runner.query('SHOW statement_timeout')).toEqual([
          { statement_timeout: '20s' },
        ]);
        expect(await runner.query('SHOW lock_timeout')).toEqual([{ lock_timeout: '4s' }]);
      }
    } finally {
      await Promise.all(runners.map((runner) => runner.release()));
    }
  });

  it('a pool wait past its bound is 503 service_unavailable with Retry-After, then recovers', async () => {
    const dataSource = api.app.get(DataSource);
    const held: QueryRunner[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const runner = dataSource.createQueryRunner();
        await runner.connect();
        held.push(runner);
      }
      const response = await api.http().get('/api/v0/endptjobs/').set(alice.auth);
      expect(response.status).toBe(503);
      expect(response.headers['retry-after']).toBe('1');
      expect(response.body).toEqual({
        success: false,
        error: 'service_unavailable',
        msg: 'The database is busy; retry shortly.',
      });
    } finally {
      await Promise.all(held.map((runner) => runner.release()));
    }
    expect((await api.http().get('/api/v0/endptjobs/').set(alice.auth)).status).toBe(200);
  });

  it('a lock wait past DATABASE_LOCK_TIMEOUT_MS is 503 with Retry-After and changes nothing', async () => {
    const id = await createGroup(alice);
    const release = await lockRows(`SELECT 1 FROM endpoint_groups WHERE id = $1 FOR UPDATE`, [id]);
    try {
      const response = await update(alice, id, 7);
      expect(response.status).toBe(503);
      expect(response.headers['retry-after']).toBe('1');
      expect(response.body.error).toBe('service_unavailable');
    } finally {
      await release();
    }
    const [row] = await api.app
      .get(DataSource)
      .query(`SELECT min_load FROM endpoint_groups WHERE id = $1`, [id]);
    expect(Number(row.min_load)).not.toBe(7);
    expect((await update(alice, id, 8)).status).toBe(200);
  });

  it('endpoint-group writes: one in flight per user, the next is 429; other users are not held up', async () => {
    const [mine, other, bobs] = [
      await createGroup(alice),
      await createGroup(alice),
      await createGroup(bob),
    ];
    const release = await lockRows(`SELECT 1 FROM endpoint_groups WHERE id = $1 FOR UPDATE`, [
      mine,
    ]);
    let first: Promise<{ status: number }>;
    try {
      first = update(alice, mine, 3).then((response) => response);
      await untilSomeoneWaitsOnALock();

      // Refusals are answered after their Retry-After second; sent together, so the held
      // request is still waiting on its lock when they come back.
      const refusals = await Promise.all([
        update(alice, other, 4),
        api.http().delete(`/api/v0/endptjobs/${other}/`).set(alice.auth).send({}),
      ]);
      for (const refused of refusals) {
        expect(refused.status).toBe(429);
        expect(refused.headers['retry-after']).toBe('1');
        expect(refused.body).toEqual({
          detail:
            'Too many concurrent requests to this endpoint: at most 1 at a time per user; retry shortly',
        });
      }
      expect((await update(bob, bobs, 4)).status).toBe(200);
      expect((await api.http().get('/api/v0/endptjobs/').set(alice.auth)).status).toBe(200);
    } finally {
      await release();
    }
    expect((await first).status).toBe(200);
    // The slot is free again once the response is out.
    expect((await update(alice, other, 5)).status).toBe(200);
  });

  it('PUT /tfa/update/: one in flight per user, the next is 429', async () => {
    const user = await createTestUser(api);
    const totp = await enableTotp(api, user);
    const release = await lockRows(`SELECT 1 FROM tfa_methods WHERE id = $1 FOR UPDATE`, [
      totp.methodId,
    ]);
    const rename = (label: string) =>
      updateMethod(api, user.auth, { tfa_method_id: totp.methodId, label });
    let first: Promise<{ status: number }>;
    try {
      first = rename('held').then((response) => response);
      await untilSomeoneWaitsOnALock();
      const refused = await rename('refused');
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
    } finally {
      await release();
    }
    expect((await first).status).toBe(200);
    expect((await rename('after')).status).toBe(200);
  });

  describe('requests in flight per credential', () => {
    let capped: TestApi;

    beforeAll(async () => {
      capped = await startApi({
        REDIS_URL: redis.url,
        REQUESTS_IN_FLIGHT_PER_KEY: '2',
        WRITE_CONCURRENCY_PER_USER: '0',
      });
    });
    afterAll(() => capped.close());

    it('holds one key to its cap on every route before looking it up; other keys go on', async () => {
      const user = await createTestUser(capped);
      const other = await createTestUser(capped);
      const groups: number[] = [];
      for (const name of ['held-1', 'held-2']) {
        const created = await capped
          .http()
          .post('/api/v0/endptjobs/')
          .set(user.auth)
          .send({ endpoint_name: name });
        groups.push(created.body.result as number);
      }
      const release = await lockRows(
        `SELECT 1 FROM endpoint_groups WHERE id = ANY($1) FOR UPDATE`,
        [groups],
      );
      let held: Array<Promise<{ status: number }>> = [];
      try {
        held = groups.map((id) =>
          capped
            .http()
            .put(`/api/v0/endptjobs/${id}/`)
            .set(user.auth)
            .send({ min_load: 2 })
            .then((response) => response),
        );
        const probe = capped.app.get(DataSource);
        for (;;) {
          const [row] = await probe.query(
            `SELECT count(*)::int AS waiting FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          );
          if (row.waiting >= 2) break;
          await new Promise((resolve) => setImmediate(resolve));
        }
        const refused = await capped.http().get('/api/v0/users/current/').set(user.auth);
        expect(refused.status).toBe(429);
        expect(refused.headers['retry-after']).toBe('1');
        expect(refused.body).toEqual({
          detail: 'Too many concurrent requests: at most 2 at a time per API key; retry shortly',
        });
        // The cap counts the credential the guard resolves, however the header spells it
        // (asked at once: each refusal is answered after its second, and the held writes
        // must not outlive the lock timeout meanwhile).
        const spellings = [
          `bearer ${user.apiKey}`,
          `BEARER ${user.apiKey}`,
          `Bearer  ${user.apiKey}`,
          `Bearer ${user.apiKey}  `,
        ];
        const variants = await Promise.all(
          spellings.map((spelling) =>
            capped
              .http()
              .get('/api/v0/tfa/events/?limit=500')
              .set({ Authorization: spelling })
              .then((response) => ({ spelling, status: response.status })),
          ),
        );
        expect(variants).toEqual(spellings.map((spelling) => ({ spelling, status: 429 })));
        expect((await capped.http().get('/api/v0/users/current/').set(other.auth)).status).toBe(
          200,
        );
      } finally {
        await release();
      }
      expect((await Promise.all(held)).map((response) => response.status)).toEqual([200, 200]);
      expect((await capped.http().get('/api/v0/users/current/').set(user.auth)).status).toBe(200);
    });
  });

  describe('pool budget at start', () => {
    it('counts the processes really connected, and fits a default server', async () => {
      const spawned = await spawnApi({
        LOG_LEVEL: 'info',
        SHUTDOWN_GRACE_MS: '0',
        REDIS_URL: redis.url,
        RUN_WORKER: 'false',
      });
      try {
        const line = await awaitBudgetLine(spawned);
        // This file's in-process api, the spawned one, and whatever else of the run is
        // connected to the test server: at least 2 api processes, never the old default 5.
        const match =
          /^Database pool budget: 10 per process x (\d+) processes \((\d+) connected now: (\d+) api, (\d+) worker; DATABASE_POOL_PROCESSES unset\) \+ 1 for migrations = (\d+) of \d+ usable connections on the primary \(max_connections \d+, \d+ reserved\)$/.exec(
            line?.msg ?? '',
          );
        expect(match).not.toBeNull();
        const [, processes, connected, apis, workers, needed] = match!.map(Number);
        expect(processes).toBe(connected);
        expect(connected).toBe(apis + workers);
        expect(apis).toBeGreaterThanOrEqual(2);
        expect(needed).toBe(processes * 10 + 1);
        expect(line?.level).toBe(30);
      } finally {
        await spawned.stop();
      }
    });

    it('warns when the processes x pool would not fit max_connections, naming what to change', async () => {
      const spawned = await spawnApi({
        LOG_LEVEL: 'info',
        SHUTDOWN_GRACE_MS: '0',
        REDIS_URL: redis.url,
        RUN_WORKER: 'false',
        DATABASE_POOL_MAX: '50',
        DATABASE_POOL_PROCESSES: '40',
      });
      try {
        const line = await awaitBudgetLine(spawned);
        expect(line?.msg).toMatch(
          /^Database pool budget: 50 per process x 40 processes \(DATABASE_POOL_PROCESSES 40; \d+ api, \d+ worker connected now\) \+ 1 for migrations = 2001 of (\d+) usable connections .*: the primary does not fit it: lower DATABASE_POOL_MAX to \d+, raise max_connections to \d+ or put PgBouncer in front$/,
        );
        const usable = Number(/of (\d+) usable/.exec(line!.msg!)![1]);
        const lowered = Number(/lower DATABASE_POOL_MAX to (\d+)/.exec(line!.msg!)![1]);
        expect(lowered * 40 + 1).toBeLessThanOrEqual(usable);
        expect((lowered + 1) * 40 + 1).toBeGreaterThan(usable);
        expect(line?.level).toBe(40);
      } finally {
        await spawned.stop();
      }
    });
  });
});

/**
 * A server with fewer connection slots than the pools would open (max_connections 8, a
 * pool of 20): PostgreSQL refuses the extra connections with 53300 "too many clients",
 * which is load, answered 503 with Retry-After like an exhausted pool, never 500. The
 * start-up line says it does not fit and what to change.
 */
describe('a PostgreSQL server out of connection slots', () => {
  let pg: PostgresWithReplica;
  let redis: OwnRedis;

  beforeAll(async () => {
    [pg, redis] = await Promise.all([
      PostgresWithReplica.start({ replica: false, settings: { max_connections: '8' } }),
      OwnRedis.start(),
    ]);
  });
  afterAll(async () => {
    await pg?.stop();
    await redis?.stop();
  });

  it('answers 503 with Retry-After, never 500, and warned at start what to change', async () => {
    const env = {
      DATABASE_URL: pg.url('gpumarket_slots', 'primary'),
      REDIS_URL: redis.url,
      RUN_WORKER: 'false',
      DATABASE_POOL_MAX: '20',
      DATABASE_POOL_WAIT_MS: '5000',
    };
    const setup = await startApi(env);
    const spawned = await spawnApi({ ...env, LOG_LEVEL: 'info', SHUTDOWN_GRACE_MS: '0' });
    try {
      const budget = await awaitBudgetLine(spawned);
      expect(budget?.msg).toMatch(
        /^Database pool budget: 20 per process x 2 processes \(2 connected now: 2 api, 0 worker; DATABASE_POOL_PROCESSES unset\) \+ 1 for migrations = 41 of 5 usable connections on the primary \(max_connections 8, 3 reserved\): the primary does not fit it: lower DATABASE_POOL_MAX to 2, raise max_connections to 44 or put PgBouncer in front$/,
      );
      const user = await createTestUser(setup);
      const statuses: number[] = [];
      const retryAfter = new Set<string | null>();
      for (let round = 0; round < 3; round += 1) {
        const responses = await Promise.all(
          Array.from({ length: 40 }, () =>
            fetch(`${spawned.url}/api/v0/endptjobs/`, { headers: user.auth }),
          ),
        );
        for (const response of responses) {
          statuses.push(response.status);
          if (response.status === 503) {
            retryAfter.add(response.headers.get('retry-after'));
            expect(await response.json()).toEqual({
              success: false,
              error: 'service_unavailable',
              msg: 'The database is busy; retry shortly.',
            });
          } else await response.arrayBuffer();
        }
      }
      const counts = statuses.reduce<Record<number, number>>(
        (all, status) => ({ ...all, [status]: (all[status] ?? 0) + 1 }),
        {},
      );
      console.info(
        `max_connections 8, pool 20, 120 requests 40 at a time: ${JSON.stringify(counts)}`,
      );
      expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
      expect(counts[503]).toBeGreaterThan(0);
      expect([...retryAfter]).toEqual(['1']);
    } finally {
      await spawned.stop();
      await setup.close();
    }
  }, 90_000);
});
