import {
  createTestUser,
  runManage,
  spawnApi,
  SpawnedProcess,
  startApi,
  TestApi,
  TestUser,
} from '@test/support/api';
import { spawnWorker, WorkerProcess } from '@test/support/delivery';
import { RedisSentinelGroup, until } from '@test/support/redis-topologies';
import { enableTotp, readCode } from '@test/support/tfa';

/**
 * The service on a Redis master with a replica and three Sentinels. The master is killed
 * while requests flow: the api and worker processes follow the failover on their own
 * (no restart); meanwhile requests are refused with 503 service_unavailable, never 500;
 * afterwards everything works on the promoted replica.
 */
describe('on Redis Sentinel (master, replica, 3 sentinels), master killed mid-run', () => {
  let group: RedisSentinelGroup;
  let setup: TestApi;
  let replica: SpawnedProcess;
  let worker: WorkerProcess;
  let user: TestUser;

  beforeAll(async () => {
    group = await RedisSentinelGroup.start();
    const env = {
      REDIS_SENTINELS: group.sentinelsSetting,
      REDIS_SENTINEL_NAME: group.name,
      RUN_WORKER: 'false',
    };
    setup = await startApi(env);
    replica = await spawnApi({ ...env, RATE_LIMITS: 'on', RATE_LIMIT_VOLUMES_UNLIST: '0.05' });
    worker = await spawnWorker(env);
    user = await createTestUser(setup);
    await enableTotp(setup, user);
  });

  afterAll(async () => {
    await Promise.all([replica?.stop(), worker?.kill('SIGTERM')]);
    await setup?.close();
    await group?.stop();
  });

  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${replica.url}${path}`, {
      method: 'POST',
      headers: { ...user.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  /** Asks for an email code and logs in with it: Redis on the request path and the worker's. */
  const emailLogin = async () => {
    const sent = await post('/api/v0/tfa/email/', {});
    if (sent.status !== 200) return sent;
    const code = await readCode(setup, user.email);
    return post('/api/v0/tfa/', { tfa_method: 'email', code, secret: sent.body.secret });
  };

  it('answers 503 service_unavailable during the switch, never 500, and works after it', async () => {
    expect((await emailLogin()).status).toBe(200);
    const oldMaster = await group.masterPort();
    expect(oldMaster).toBe(group.master.port);

    // Requests that need Redis (the rate limiter), one after another while the master dies.
    const seen: Array<{ status: number; error?: unknown; at: number }> = [];
    let stop = false;
    const load = (async () => {
      while (!stop) {
        const { status, body } = await post('/api/v0/volumes/unlist', { id: 987654 });
        seen.push({ status, error: body.error, at: Date.now() });
      }
    })();
    await until('some requests were served', async () => seen.length >= 5);
    const killedAt = Date.now();
    await group.master.kill();
    await until(
      'the sentinels promoted the replica',
      async () => (await group.masterPort()) === group.replica.port,
    );
    const servedAfter = seen.length;
    await until('requests are served again', async () =>
      seen.slice(servedAfter).some((r) => r.status !== 503),
    );
    stop = true;
    await load;

    const statuses = seen.map((r) => r.status);
    expect(statuses.filter((status) => status >= 500 && status !== 503)).toEqual([]);
    expect(
      seen.filter((r) => r.status === 503).every((r) => r.error === 'service_unavailable'),
    ).toBe(true);
    // Served before and after; the outage itself is what the 503s were.
    expect(statuses[0]).not.toBe(503);
    expect(statuses[statuses.length - 1]).not.toBe(503);
    const refused = seen.filter((r) => r.status === 503);
    const lastRefusal = refused.length ? refused[refused.length - 1].at : killedAt;
    console.info(
      `sentinel failover: ${seen.length} requests, ${refused.length} answered 503, none 500; ` +
        `served again ${lastRefusal - killedAt} ms after the kill`,
    );

    // Both the api (challenge store, rate limiter) and the worker (delivery) follow.
    expect((await emailLogin()).status).toBe(200);
  });
});

/**
 * A manual failover (SENTINEL FAILOVER) while the old master stays up: the Sentinels
 * promote the replica at once but demote the old master only seconds later, and whatever
 * is written to it meanwhile vanishes with the demotion. Every process must leave the old
 * master before the promotion and come back only to the new one: no rate-limit window
 * admitted twice, every code sent accepted, and nothing keeps a process from exiting.
 */
describe('on Redis Sentinel, a manual failover under load (the old master stays up)', () => {
  // Enough for one new window every 60 ms from before the failover to after the demotion.
  const USERS = 360;
  const CODE_USERS = 8;
  let group: RedisSentinelGroup;
  let setup: TestApi;
  let api: SpawnedProcess;
  let worker: WorkerProcess;
  let users: TestUser[];
  let codeUsers: TestUser[];
  let env: Record<string, string>;

  beforeAll(async () => {
    group = await RedisSentinelGroup.start();
    env = {
      REDIS_SENTINELS: group.sentinelsSetting,
      REDIS_SENTINEL_NAME: group.name,
      RUN_WORKER: 'false',
    };
    setup = await startApi(env);
    // A window far longer than the test: a second admission can only be a lost window.
    api = await spawnApi({ ...env, RATE_LIMITS: 'on', RATE_LIMIT_VOLUMES_UNLIST: '600' });
    worker = await spawnWorker(env);
    users = [];
    for (let i = 0; i < USERS; i += 40)
      users.push(...(await Promise.all(Array.from({ length: 40 }, () => createTestUser(setup)))));
    codeUsers = await Promise.all(Array.from({ length: CODE_USERS }, () => createTestUser(setup)));
    for (const user of codeUsers) await enableTotp(setup, user);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([api?.stop(), worker?.kill('SIGTERM')]);
    await setup?.close();
    await group?.stop();
  });

  const post = async (user: TestUser, path: string, body: unknown) => {
    const response = await fetch(`${api.url}${path}`, {
      method: 'POST',
      headers: { ...user.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('admits no window twice and accepts every code: no write lands on the old master', async () => {
    const oldMaster = group.master.port;
    const seen: Array<{ status: number; error?: unknown; at: number }> = [];
    const admitted: TestUser[] = [];
    let stop = false;
    let failoverAt = 0;
    // One new user's first unlist every 60 ms: each admission writes a window.
    const windows = (async () => {
      for (const user of users) {
        if (stop) break;
        let refusedBefore = false;
        for (;;) {
          const { status, body } = await post(user, '/api/v0/volumes/unlist', { id: 987654 });
          seen.push({ status, error: body.error, at: Date.now() });
          if (status !== 503) {
            // A 503 can come after the window was written (the reply lost when a
            // connection was cut): the retry then finds its window, which is no lost
            // write. Without an earlier 503 the first answer must be an admission.
            const expected = refusedBefore && status === 429 ? 429 : 400;
            expect({ status, refusedBefore }).toEqual({ status: expected, refusedBefore });
            admitted.push(user);
            break;
          }
          refusedBefore = true;
          await pause(20);
        }
        await pause(60);
      }
    })();
    // A code asked for every 600 ms from the failover on, each retried through 503s.
    const codes: Array<{ user: TestUser; secret: string }> = [];
    const asking = (async () => {
      await until('the failover began', async () => failoverAt > 0);
      for (const user of codeUsers) {
        for (;;) {
          const sent = await post(user, '/api/v0/tfa/email/', {});
          if (sent.status === 200) {
            codes.push({ user, secret: String(sent.body.secret) });
            break;
          }
          expect(sent.status).toBe(503);
          await pause(50);
        }
        await pause(600);
      }
    })();

    await until('some windows were admitted', async () => admitted.length >= 10);
    failoverAt = Date.now();
    await group.failover();
    await until(
      'the sentinels name the replica as master',
      async () => (await group.masterPort()) === group.replica.port,
    );
    const switchedAt = Date.now();
    await until(
      'the old master was demoted',
      async () => (await RedisSentinelGroup.role(group.master)) === 'slave',
    );
    const demotedAt = Date.now();
    // Some more admissions on the new master, then every code asked for.
    const admittedAtDemotion = admitted.length;
    await until(
      'windows are admitted after the demotion',
      async () => admitted.length >= admittedAtDemotion + 10,
    );
    await asking;
    stop = true;
    await windows;
    expect(await group.masterPort()).not.toBe(oldMaster);

    expect(seen.filter((r) => r.status >= 500 && r.status !== 503)).toEqual([]);
    const refused = seen.filter((r) => r.status === 503);
    expect(refused.every((r) => r.error === 'service_unavailable')).toBe(true);

    // No window was lost: every user admitted once is refused now, from the new master.
    const again = await Promise.all(
      admitted.map((user) => post(user, '/api/v0/volumes/unlist', { id: 987654 })),
    );
    const readmitted = again.filter((r) => r.status !== 429).length;
    // No code was lost: each one sent is delivered and accepted.
    const logins = [];
    for (const { user, secret } of codes) {
      const code = await readCode(setup, user.email);
      logins.push((await post(user, '/api/v0/tfa/', { tfa_method: 'email', code, secret })).status);
    }
    console.info(
      `SENTINEL FAILOVER: switch ${switchedAt - failoverAt} ms after the command, old master demoted ` +
        `${demotedAt - failoverAt} ms after it; ${seen.length} requests, ${refused.length} answered 503 ` +
        (refused.length
          ? `(from ${refused[0].at - failoverAt} to ${refused[refused.length - 1].at - failoverAt} ms), `
          : '') +
        `none 500; ${admitted.length} windows, ${readmitted} admitted again; ` +
        `${codes.length} codes, ${logins.filter((s) => s === 200).length} accepted`,
    );
    expect(readmitted).toBe(0);
    expect(codes).toHaveLength(CODE_USERS);
    expect(logins).toEqual(codes.map(() => 200));
  }, 120_000);

  it('lets manage, the api and the worker exit cleanly on Sentinel', async () => {
    const started = Date.now();
    const created = await runManage(
      ['user:create', '--email', `sentinel-exit-${Date.now()}@example.test`],
      env,
    );
    expect(created.code).toBe(0);
    expect(created.stderr).toBe('');
    expect(await api.stop('SIGTERM')).toBe(0);
    await worker.kill('SIGTERM');
    expect(worker.child.exitCode).toBe(0);
    console.info(`sentinel mode: manage, api and worker exited 0 in ${Date.now() - started} ms`);
  });
});
