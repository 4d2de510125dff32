import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { QueueRegistry } from '@app/platform';
import { createTestUser, startApi, TestApi, TestUser } from '@test/support/api';
import {
  deliveryJobId,
  deliverySettled,
  smtpEnv,
  spawnWorker,
  WorkerProcess,
} from '@test/support/delivery';
import { LOST_REPLY, mailCode, SmtpSink, startSmtpSink } from '@test/support/smtp-sink';
import { OwnRedis } from '@test/support/own-redis';
import { TEST_DATABASE_URL, temporaryDatabaseUrl } from '@test/support/test-env';
import { startAuthorization } from '@test/support/tfa-requests';

/**
 * Exactly once with the development outbox too. The outbox table is locked, so a worker's
 * inserts hang in PostgreSQL; the worker is killed with them in flight (they commit later,
 * when the lock goes, with nobody left to record them); the next worker finds those sends
 * uncertain and attempts them again while the dead worker's inserts still wait. Counted per
 * code: 0 lost, 0 duplicated. On a database and a Redis of its own: the lock would stall the
 * outbox inserts of every other file running meanwhile, and their codes with them.
 */
const CODES = 30;
/** The worker's concurrency (messaging's message.worker.ts): the first worker takes this many. */
const FIRST_BATCH = 8;

describe('outbox delivery: a worker killed while its inserts wait on a lock', () => {
  const database = temporaryDatabaseUrl('exactly_once');
  let own: OwnRedis;
  let api: TestApi;
  let env: Record<string, string>;
  let locker: Client;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    own = await OwnRedis.start();
    env = {
      // Created and migrated by the api's start.
      DATABASE_URL: database.url,
      REDIS_URL: own.url,
      EMAIL_PROVIDER: 'outbox',
      DELIVERY_JOB_LOCK_MS: '1000',
      DELIVERY_BACKOFF_MS: '200',
      DELIVERY_MAX_ATTEMPTS: '12',
      DELIVERY_FIRST_ATTEMPT_WAIT_MS: '0',
      RUN_WORKER: 'false',
      // Nothing cuts the waiting inserts short: the dead worker's commit whenever the lock goes.
      DATABASE_LOCK_TIMEOUT_MS: '0',
      DATABASE_STATEMENT_TIMEOUT_MS: '0',
    };
    api = await startApi(env);
    locker = new Client({ connectionString: database.url });
    await locker.connect();
  });

  afterAll(async () => {
    await locker.query('ROLLBACK').catch(() => undefined);
    await locker.end();
    await Promise.all(workers.map((worker) => worker.kill('SIGKILL')));
    await api.close();
    await own.stop();
    const admin = new Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${database.name}" WITH (FORCE)`);
    await admin.end();
  });

  /** Backends (any process) whose insert into the outbox waits on a lock. */
  async function waitingInserts(): Promise<number> {
    const [row] = await api.app.get(DataSource).query(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'
          AND query LIKE 'INSERT INTO tfa_outbox_messages%'`,
    );
    return row.n as number;
  }

  async function until(probe: () => Promise<boolean>): Promise<void> {
    while (!(await probe())) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  /** Starts an email authorization: one outbox delivery for the user's address. */
  async function requestCode(user: TestUser): Promise<string> {
    const response = await startAuthorization(api, user.auth, { tfa_method: 'email' });
    expect(response.status).toBe(200);
    return deliveryJobId(api, response.body.secret);
  }

  it('delivers each of 30 codes exactly once', async () => {
    const users: TestUser[] = [];
    for (let i = 0; i < CODES; i++) users.push(await createTestUser(api));
    const jobIds: string[] = [];

    await locker.query('BEGIN');
    await locker.query('LOCK TABLE tfa_outbox_messages IN EXCLUSIVE MODE');
    for (const user of users.slice(0, FIRST_BATCH)) jobIds.push(await requestCode(user));

    const first = await spawnWorker(env);
    workers.push(first);
    await until(async () => (await waitingInserts()) === FIRST_BATCH);
    await first.kill('SIGKILL');
    expect(first.child.signalCode).toBe('SIGKILL');

    // The next worker takes the dead one's jobs once their locks lapse, finds them
    // uncertain (nothing committed yet) and inserts again: both inserts now wait.
    workers.push(await spawnWorker(env));
    await until(async () => (await waitingInserts()) === 2 * FIRST_BATCH);
    for (const user of users.slice(FIRST_BATCH)) jobIds.push(await requestCode(user));

    await locker.query('ROLLBACK');
    for (const jobId of jobIds) expect(await deliverySettled(api, jobId)).toBe('completed');
    expect(await api.app.get(QueueRegistry).get('code-delivery').getJobCounts('failed')).toEqual({
      failed: 0,
    });

    // Inserts of the dead worker that were still on their way have landed by now: none waits.
    await until(async () => (await waitingInserts()) === 0);
    const rows: Array<{ recipient: string; copies: number }> = await api.app.get(DataSource).query(
      `SELECT lower(recipient) AS recipient, count(*)::int AS copies FROM tfa_outbox_messages
          WHERE lower(recipient) = ANY($1) GROUP BY 1`,
      [users.map((user) => user.email.toLowerCase())],
    );
    const copies = new Map(rows.map((row) => [row.recipient, row.copies]));
    const perCode = users.map((user) => copies.get(user.email.toLowerCase()) ?? 0);
    const lost = perCode.filter((count) => count === 0).length;
    const duplicated = perCode.filter((count) => count > 1).length;
    expect({ lost, duplicated }).toEqual({ lost: 0, duplicated: 0 });
  }, 120_000);
});

describe('SMTP: a send whose answer was lost', () => {
  let sink: SmtpSink;
  let api: TestApi;
  let redis: OwnRedis;

  beforeAll(async () => {
    sink = await startSmtpSink();
    // A Redis of its own: this worker must not take (or give away) other files' jobs.
    redis = await OwnRedis.start();
    api = await startApi({
      REDIS_URL: redis.url,
      ...smtpEnv(sink),
      DELIVERY_BACKOFF_MS: '100',
      DELIVERY_FIRST_ATTEMPT_WAIT_MS: '0',
    });
  });
  afterAll(async () => {
    await api.close();
    await sink.close();
    await redis.stop();
  });

  it('is sent again with the same Message-ID and the same code', async () => {
    const user = await createTestUser(api);
    const toUser = (mail: { to: string[] }) => mail.to.includes(user.email.toLowerCase());
    // The server keeps the first message but the connection drops before its 250.
    sink.program(LOST_REPLY);
    const response = await startAuthorization(api, user.auth, { tfa_method: 'email' });
    expect(response.status).toBe(200);
    const jobId = deliveryJobId(api, response.body.secret);
    expect(await deliverySettled(api, jobId)).toBe('completed');
    const mails = await sink.waitForMail(toUser, 2);
    expect(mails).toHaveLength(2);
    expect(mails[1].messageId).toBe(mails[0].messageId);
    expect(mails[0].messageId).toBe(`<${jobId}@gpumarket.test>`);
    expect(mailCode(mails[1])).toBe(mailCode(mails[0]));
  });
});
