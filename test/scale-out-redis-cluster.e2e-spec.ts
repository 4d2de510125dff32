import { QueueRegistry } from '@app/platform';
import {
  createTestUser,
  spawnApi,
  SpawnedProcess,
  startApi,
  TestApi,
  TestUser,
} from '@test/support/api';
import { spawnWorker, WorkerProcess } from '@test/support/delivery';
import { RedisCluster, until } from '@test/support/redis-topologies';
import {
  addSms,
  enableTotp,
  failureState,
  forgetRecentSms,
  outboxCount,
  readCode,
  testPhone,
  totpCode,
} from '@test/support/tfa';

/**
 * The service on a real Redis Cluster of 3 masters (made by `redis-cli --cluster create`):
 * two api processes and two worker processes share it. Every guarantee that rests on Redis
 * holds as on one server: rate limits, single use, lockout, exactly-once delivery.
 */
const PARALLEL = 50;
/** Longest wait for one answer, and longest a user is refused with 503, in the failover test. */
const REQUEST_BOUND_MS = 15_000;
const REFUSALS_BOUND_MS = 30_000;

describe('on a Redis Cluster of 3 masters, with 2 api and 2 worker processes', () => {
  let cluster: RedisCluster;
  let setup: TestApi;
  let replicas: SpawnedProcess[] = [];
  let workers: WorkerProcess[] = [];
  let commandsBefore: number[];

  beforeAll(async () => {
    cluster = await RedisCluster.start(3);
    commandsBefore = await cluster.commandsPerNode();
    const env = { REDIS_CLUSTER_NODES: cluster.nodesSetting, RUN_WORKER: 'false' };
    // `setup` prepares users and methods; the requests under test go to the two replicas.
    setup = await startApi(env);
    replicas = await Promise.all([
      spawnApi({ ...env, RATE_LIMITS: 'on' }),
      spawnApi({ ...env, RATE_LIMITS: 'on' }),
    ]);
    workers = await Promise.all([spawnWorker(env), spawnWorker(env)]);
  });

  afterAll(async () => {
    await Promise.all([
      ...replicas.map((replica) => replica.stop()),
      ...workers.map((worker) => worker.kill('SIGTERM')),
    ]);
    await setup?.close();
    await cluster?.stop();
  });

  /** `count` requests released together, alternating between the two api processes. */
  const together = (count: number, path: string, auth: Record<string, string>, body: unknown) =>
    Promise.all(
      Array.from({ length: count }, (_, i) =>
        fetch(`${replicas[i % 2].url}${path}`, {
          method: 'POST',
          headers: { ...auth, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        }).then(async (response) => ({
          status: response.status,
          body: (await response.json()) as Record<string, unknown>,
        })),
      ),
    );
  const admitted = (responses: Array<{ status: number }>, status = 200) =>
    responses.filter((response) => response.status === status).length;
  const noServerErrors = (responses: Array<{ status: number }>) =>
    expect(responses.filter((response) => response.status >= 500)).toEqual([]);

  it('rate limit: of 30 parallel unlist calls exactly 1 is admitted', async () => {
    const user = await createTestUser(setup);
    const responses = await together(30, '/api/v0/volumes/unlist', user.auth, { id: 987654 });
    noServerErrors(responses);
    expect(responses.filter((response) => response.status !== 429)).toHaveLength(1);
  });

  it('one backup code, 50 parallel logins: exactly 1 succeeds', async () => {
    const user = await createTestUser(setup);
    const totp = await enableTotp(setup, user);
    const responses = await together(PARALLEL, '/api/v0/tfa/', user.auth, {
      backup_code: totp.backupCodes[0],
    });
    noServerErrors(responses);
    expect(admitted(responses)).toBe(1);
  });

  it('one TOTP code, 50 parallel logins: exactly 1 succeeds', async () => {
    const user = await createTestUser(setup);
    const totp = await enableTotp(setup, user);
    const responses = await together(PARALLEL, '/api/v0/tfa/', user.auth, {
      tfa_method: 'totp',
      code: totpCode(totp.secret),
      tfa_method_id: totp.methodId,
    });
    noServerErrors(responses);
    expect(admitted(responses)).toBe(1);
  });

  it('one email code, 50 parallel logins: exactly 1 succeeds', async () => {
    const user = await createTestUser(setup);
    await enableTotp(setup, user);
    const [sent] = await together(1, '/api/v0/tfa/email/', user.auth, {});
    expect(sent.status).toBe(200);
    const code = await readCode(setup, user.email);
    const responses = await together(PARALLEL, '/api/v0/tfa/', user.auth, {
      tfa_method: 'email',
      code,
      secret: sent.body.secret,
    });
    noServerErrors(responses);
    expect(admitted(responses)).toBe(1);
  });

  it('one SMS code, 50 parallel logins: exactly 1 succeeds', async () => {
    const user = await createTestUser(setup);
    const phone = testPhone();
    const sms = await addSms(setup, user, phone);
    await forgetRecentSms(setup, user.id);
    const [sent] = await together(1, '/api/v0/tfa/sms/', user.auth, {
      tfa_method_id: sms.methodId,
    });
    expect(sent.status).toBe(200);
    const code = await readCode(setup, phone);
    const responses = await together(PARALLEL, '/api/v0/tfa/', user.auth, {
      tfa_method: 'sms',
      code,
      secret: sent.body.secret,
    });
    noServerErrors(responses);
    expect(admitted(responses)).toBe(1);
  });

  it('50 parallel wrong codes: exactly 5 failures are counted, then the method is locked', async () => {
    const user = await createTestUser(setup);
    const totp = await enableTotp(setup, user);
    const wrong = String((Number(totpCode(totp.secret)) + 1) % 1_000_000).padStart(6, '0');
    const responses = await together(PARALLEL, '/api/v0/tfa/', user.auth, {
      tfa_method: 'totp',
      code: wrong,
    });
    noServerErrors(responses);
    expect(admitted(responses, 400) + admitted(responses, 429)).toBe(PARALLEL);
    expect((await failureState(setup, user.id, 'totp')).failCount).toBe(5);
  });

  it('30 codes requested through both api processes are each delivered exactly once by the 2 workers', async () => {
    const users: TestUser[] = await Promise.all(
      Array.from({ length: 30 }, () => createTestUser(setup)),
    );
    const phones = users.map(() => testPhone());
    const responses = await Promise.all(
      users.map((user, i) =>
        fetch(`${replicas[i % 2].url}/api/v0/tfa/sms/`, {
          method: 'POST',
          headers: { ...user.auth, 'Content-Type': 'application/json' },
          body: JSON.stringify({ phone_number: phones[i] }),
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(users.map(() => 200));
    await until('every code reached the outbox', async () =>
      (await Promise.all(phones.map((phone) => outboxCount(setup, phone)))).every((n) => n >= 1),
    );
    const queue = setup.app.get(QueueRegistry).get('code-delivery');
    await until('the delivery queue is drained', async () => {
      const counts = await queue.getJobCounts('active', 'wait', 'delayed');
      return Object.values(counts).every((count) => count === 0);
    });
    expect(await Promise.all(phones.map((phone) => outboxCount(setup, phone)))).toEqual(
      phones.map(() => 1),
    );
  });

  it('spreads the work over all 3 masters', async () => {
    const after = await cluster.commandsPerNode();
    // Far more than the handful of commands a master answers on its own (cluster gossip is
    // on the bus port, not counted here): every master served the service's keys.
    after.forEach((count, i) => expect(count - commandsBefore[i]).toBeGreaterThan(100));
  });
  // Last: it leaves the cluster refusing every keyed command.
  it('turns readiness down when the whole cluster refuses keyed commands, though PING answers', async () => {
    await cluster.uncoverSlot(0);
    expect(await cluster.pingEveryNode()).toEqual(['PONG', 'PONG', 'PONG']);
    for (const target of [...replicas.map((r) => r.url), ...workers.map((w) => w.metricsUrl)]) {
      const ready = await fetch(`${target}/health/ready`);
      const body = (await ready.json()) as {
        details: { redis: { status: string; message?: string } };
      };
      expect({ target, status: ready.status, redis: body.details.redis.status }).toEqual({
        target,
        status: 503,
        redis: 'down',
      });
      // The refusal itself, or the client still retrying it when the probe gives up.
      expect(body.details.redis.message).toMatch(/CLUSTERDOWN|timed out/);
    }
    const user = await createTestUser(setup);
    const [refused] = await together(1, '/api/v0/volumes/unlist', user.auth, { id: 987654 });
    expect(refused.status).toBe(503);
    expect(refused.body.error).toBe('service_unavailable');
  });
});

/**
 * A Redis Cluster of 3 masters with a replica each (docker/compose.scale.yml's shape),
 * cluster-node-timeout 2 s: a master killed under load. Requests whose keys it held answer
 * 503 until its replica takes over (about the node timeout plus an election), the others
 * go on; no 500, and every code asked for meanwhile is delivered, none lost.
 */
describe('on a Redis Cluster of 3 masters with a replica each, a master killed under load', () => {
  let cluster: RedisCluster;
  let setup: TestApi;
  let api: SpawnedProcess;
  let workers: WorkerProcess[] = [];

  beforeAll(async () => {
    cluster = await RedisCluster.start(3, 1);
    const env = { REDIS_CLUSTER_NODES: cluster.nodesSetting, RUN_WORKER: 'false' };
    setup = await startApi(env);
    api = await spawnApi(env);
    workers = await Promise.all([spawnWorker(env), spawnWorker(env)]);
  });

  afterAll(async () => {
    await Promise.all([api?.stop(), ...workers.map((worker) => worker.kill('SIGTERM'))]);
    await setup?.close();
    await cluster?.stop();
  });

  it('answers 503 on the lost slots until the replica takes over, never 500, and loses no code', async () => {
    const users: TestUser[] = [];
    for (let i = 0; i < 8; i += 1)
      users.push(...(await Promise.all(Array.from({ length: 20 }, () => createTestUser(setup)))));
    const sent: TestUser[] = [];
    const attempts = new Map<TestUser, number>();
    const seen: Array<{ status: number; at: number }> = [];
    let killedAt = 0;
    let next = 0;
    // Four clients, each asking for a new user's code, retrying through 503s. Every request
    // and every user's retries are bounded, so a request the api never answers, or a user
    // refused long after the failover, fails the test by name instead of running out its time.
    const client = async () => {
      while (next < users.length) {
        const user = users[next++];
        const giveUpAt = Date.now() + REFUSALS_BOUND_MS;
        for (;;) {
          const response = await fetch(`${api.url}/api/v0/tfa/email/`, {
            method: 'POST',
            headers: { ...user.auth, 'Content-Type': 'application/json' },
            body: '{}',
            signal: AbortSignal.timeout(REQUEST_BOUND_MS),
          }).catch((error: Error) => {
            throw new Error(
              `a code request had no answer in ${REQUEST_BOUND_MS} ms: ${error.message}`,
            );
          });
          seen.push({ status: response.status, at: Date.now() });
          attempts.set(user, (attempts.get(user) ?? 0) + 1);
          const body = await response.text();
          if (response.status === 200) {
            sent.push(user);
            break;
          }
          if (response.status !== 503 || Date.now() > giveUpAt)
            throw new Error(
              `a user's code request answered ${response.status} after ${attempts.get(user)} ` +
                `attempts (${killedAt ? Date.now() - killedAt : 0} ms after the kill): ${body}`,
            );
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      }
    };
    const clients = Promise.all(Array.from({ length: 4 }, client));
    // A client that fails early must not wait out the conditions below.
    const clientsFailed = clients.then(() => new Promise<never>(() => undefined));
    await Promise.race([
      until('some codes were sent', async () => sent.length >= 10),
      clientsFailed,
    ]);
    const [victim] = await cluster.masters();
    killedAt = Date.now();
    await victim.kill();
    await Promise.race([
      until(
        'its replica took over',
        async () => !(await cluster.masters()).includes(victim) && (await cluster.ok()),
      ),
      clientsFailed,
    ]);
    const recoveredAt = Date.now();
    await clients;
    expect(sent).toHaveLength(users.length);

    await until('every code reached the outbox', async () =>
      (await Promise.all(sent.map((user) => outboxCount(setup, user.email)))).every((n) => n >= 1),
    );
    const queue = setup.app.get(QueueRegistry).get('code-delivery');
    await until('the delivery queue is drained', async () => {
      const counts = await queue.getJobCounts('active', 'wait', 'delayed');
      return Object.values(counts).every((count) => count === 0);
    });
    const counts = await Promise.all(sent.map((user) => outboxCount(setup, user.email)));
    const refused = seen.filter((r) => r.status === 503);
    console.info(
      `cluster master killed: cluster_state ok again ${recoveredAt - killedAt} ms after the kill; ` +
        `${seen.length} requests, ${refused.length} answered 503` +
        (refused.length
          ? ` (from ${refused[0].at - killedAt} to ${refused[refused.length - 1].at - killedAt} ms after the kill)`
          : '') +
        `, none 500; ${sent.length} users sent a code, ${counts.filter((n) => n === 1).length} got exactly one ` +
        `message, ${counts.filter((n) => n > 1).length} two (a 503 then a retry), ${counts.filter((n) => n === 0).length} none`,
    );
    expect(seen.filter((r) => r.status !== 200 && r.status !== 503)).toEqual([]);
    // None lost, and at most one message per request: a request answered 503 may still have
    // queued its code before failing, and its retry queues a new one (a second message, with
    // the newer code; docs/operations.md "What a Redis failover can lose").
    expect(counts.filter((n) => n === 0)).toEqual([]);
    expect(sent.filter((user, i) => counts[i] > attempts.get(user)!)).toEqual([]);
  }, 120_000);
});
