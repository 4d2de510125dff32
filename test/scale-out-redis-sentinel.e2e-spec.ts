import {
  createTestUser,
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
