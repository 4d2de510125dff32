import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueueRegistry } from '@app/platform';
import { createTestUser, startApi, TestApi, TestUser } from '@test/support/api';
import {
  deliveryJobId,
  deliverySettled,
  forgetRecentSend,
  smtpEnv,
  spawnWorker,
  twilioEnv,
  WorkerProcess,
} from '@test/support/delivery';
import { FakeSms, FakeTwilio, smsCode, startFakeTwilio } from '@test/support/fake-twilio';
import { OwnRedis } from '@test/support/own-redis';
import { mailCode, SmtpSink, startSmtpSink, SunkMail } from '@test/support/smtp-sink';
import { authorizeByEmail, forgetRecentSms, testPhone, totpCode } from '@test/support/tfa';
import { CONDITION_TIMEOUT_MS } from '@test/support/wait';
import {
  confirmAuthorization,
  confirmNew,
  resendSms,
  sendEmail,
  sendSms,
  startAuthorization,
  tfaLogin,
  totpSetup,
} from '@test/support/tfa-requests';

/**
 * Code delivery end to end, asserted on the wire: the real api (and worker processes) with
 * BullMQ and Redis, Twilio and SMTP replaced by loopback servers that speak their protocols.
 *
 * Every describe runs on a private redis-server: the `code-delivery` queue has no prefix,
 * so a worker of another test file on a shared Redis would take these jobs and deliver
 * them through its own providers.
 */

const CHALLENGE_LIFETIME_MS = 10 * 60 * 1000;

/** Every HH:MM (UTC) a challenge created between the two instants can expire at. */
function expiryTimes(beforeMs: number, afterMs: number): string[] {
  const times: string[] = [];
  const first = Math.floor((beforeMs + CHALLENGE_LIFETIME_MS) / 60_000);
  const last = Math.floor((afterMs + CHALLENGE_LIFETIME_MS) / 60_000);
  for (let minute = first; minute <= last; minute += 1)
    times.push(new Date(minute * 60_000).toISOString().slice(11, 16));
  return times;
}

const SMS_BODY =
  /^(\d{6}) is your GPU Marketplace verification code\. It expires at (\d\d:\d\d) UTC\. Never share it\.$/;

async function pause(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits for `promise`, but no longer than `ms`. */
async function atMost(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/**
 * Polls `probe` until `accept` holds (up to CONDITION_TIMEOUT_MS); returns the last value
 * either way, so the caller's assertion shows what was seen.
 */
async function eventually<T>(probe: () => Promise<T>, accept: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + CONDITION_TIMEOUT_MS;
  let last = await probe();
  while (!accept(last) && Date.now() < deadline) {
    await pause(100);
    last = await probe();
  }
  return last;
}

const DRAINED = { active: 0, wait: 0, delayed: 0, prioritized: 0, paused: 0 };

/** Waits (bounded) until no delivery job is waiting, running or scheduled for a retry. */
async function queueDrained(api: TestApi): Promise<Record<string, number>> {
  const queue = api.app.get(QueueRegistry).get('code-delivery');
  return eventually(
    () => queue.getJobCounts('active', 'wait', 'delayed', 'prioritized', 'paused'),
    (counts) => Object.values(counts).every((count) => count === 0),
  );
}

const toNumber = (phone: string) => (sms: FakeSms) => sms.to === phone;
const toMailbox = (email: string) => (mail: SunkMail) => mail.to.includes(email.toLowerCase());

describe('code delivery through the providers, on the wire', () => {
  let fake: FakeTwilio;
  let sink: SmtpSink;
  let redis: OwnRedis;

  beforeAll(async () => {
    [fake, sink, redis] = await Promise.all([startFakeTwilio(), startSmtpSink(), OwnRedis.start()]);
  });
  afterAll(async () => {
    await Promise.all([fake.close(), sink.close(), redis.stop()]);
  });

  const postsTo = (phone: string) =>
    fake.calls.filter(
      (call) => call.method === 'POST' && new URLSearchParams(call.body).get('To') === phone,
    );
  const listingsOf = (phone: string) =>
    fake.calls.filter(
      (call) =>
        call.method === 'GET' && new URL(call.url, 'http://fake').searchParams.get('To') === phone,
    );

  describe('api with its in-process worker', () => {
    let api: TestApi;

    beforeAll(async () => {
      api = await startApi({
        REDIS_URL: redis.url,
        ...twilioEnv(fake),
        ...smtpEnv(sink),
        DELIVERY_BACKOFF_MS: '50',
      });
    });
    afterAll(() => api.close());

    /** Grants the add-method window with the code the SMTP sink received. */
    async function authorizeByMail(user: TestUser): Promise<void> {
      const seen = sink.messages.filter(toMailbox(user.email)).length;
      const start = await startAuthorization(api, user.auth, { tfa_method: 'email' });
      expect(start.status).toBe(200);
      const mails = await sink.waitForMail(toMailbox(user.email), seen + 1);
      await confirmAuthorization(api, user.auth, {
        secret: start.body.secret,
        code: mailCode(mails[seen]),
      }).expect(200);
    }

    it('SMS: the code goes out as a form-encoded Twilio Messages POST with basic auth, and it proves the number and logs in', async () => {
      const user = await createTestUser(api);
      await authorizeByMail(user);
      const phone = testPhone();
      const before = Date.now();
      const sent = await sendSms(api, user.auth, { phone_number: phone });
      const after = Date.now();
      expect(sent.status).toBe(200);
      expect(sent.body).toEqual({ success: true, msg: '2FA Sent', secret: expect.any(String) });
      const [sms] = await fake.waitForMessages(toNumber(phone), 1);

      const [post] = postsTo(phone);
      expect(post.url).toBe(`/2010-04-01/Accounts/${fake.accountSid}/Messages.json`);
      expect(post.authorization).toBe(
        `Basic ${Buffer.from(`${fake.accountSid}:${fake.authToken}`).toString('base64')}`,
      );
      expect(post.contentType).toMatch(/^application\/x-www-form-urlencoded/);
      expect(post.status).toBe(201);
      const form = Object.fromEntries(new URLSearchParams(post.body));
      expect(Object.keys(form).sort()).toEqual(['Body', 'From', 'To']);
      expect(form.To).toBe(phone);
      expect(form.From).toBe('+14155550100');
      const [, code, expiry] = SMS_BODY.exec(form.Body) ?? [];
      expect(code).toMatch(/^\d{6}$/);
      expect(expiryTimes(before, after)).toContain(expiry);
      expect(sms.body).toBe(form.Body);

      // The delivered code proves the number: the SMS method is created with it.
      const confirm = await confirmNew(api, user.auth, {
        tfa_method: 'sms',
        code,
        secret: sent.body.secret,
        phone_number: phone,
      });
      expect(confirm.status).toBe(200);
      expect(confirm.body.method).toMatchObject({ method: 'sms' });

      // A login code goes to the method's number; a resend repeats it as a second message.
      await forgetRecentSms(api, user.id);
      await forgetRecentSend(api, phone);
      const login = await sendSms(api, user.auth, {});
      expect(login.status).toBe(200);
      // The resend is made once the first send went out, or it would supersede it unsent.
      await fake.waitForMessages(toNumber(phone), 2);
      const resent = await resendSms(api, user.auth, { secret: login.body.secret });
      expect(resent.status).toBe(200);
      const messages = await fake.waitForMessages(toNumber(phone), 3);
      await deliverySettled(api, deliveryJobId(api, login.body.secret, 2));
      expect(fake.messages.filter(toNumber(phone))).toHaveLength(3);
      const loginCode = smsCode(messages[1]);
      expect(smsCode(messages[2])).toBe(loginCode);

      const wrong = await tfaLogin(api, user.auth, {
        tfa_method: 'sms',
        code: String((Number(loginCode) + 1) % 1_000_000).padStart(6, '0'),
        secret: login.body.secret,
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toBe('2fa_verification_failed');
      const session = await tfaLogin(api, user.auth, {
        tfa_method: 'sms',
        code: loginCode,
        secret: login.body.secret,
      });
      expect(session.status).toBe(200);
      expect(session.body).toMatchObject({ success: true, id: user.id });
      expect(session.body.session_key).toEqual(expect.any(String));
    });

    it('email: one multipart/alternative message with the code and its expiry in the text and HTML parts; the code logs in', async () => {
      const user = await createTestUser(api);
      // An email code logs in only where 2FA is on: enable it with an authenticator app.
      await authorizeByMail(user);
      const setup = await totpSetup(api, user.auth, {});
      await confirmNew(api, user.auth, {
        tfa_method: 'totp',
        code: totpCode(setup.body.secret),
        secret: setup.body.secret,
      }).expect(200);
      const seen = sink.messages.filter(toMailbox(user.email)).length;
      const before = Date.now();
      const sent = await sendEmail(api, user.auth, {});
      const after = Date.now();
      expect(sent.status).toBe(200);
      expect(sent.body).toEqual({
        success: true,
        msg: '2FA code sent to your email address.',
        secret: expect.any(String),
      });
      const mail = (await sink.waitForMail(toMailbox(user.email), seen + 1))[seen];
      await deliverySettled(api, deliveryJobId(api, sent.body.secret));
      expect(sink.messages.filter(toMailbox(user.email))).toHaveLength(seen + 1);

      expect(mail.from).toBe('no-reply@gpumarket.test');
      expect(mail.to).toEqual([user.email.toLowerCase()]);
      expect(mail.subject).toBe('GPU Marketplace verification code');
      expect(mail.raw).toMatch(/^Content-Type: multipart\/alternative;/im);
      // The same Message-ID on every attempt of a send lets mail clients collapse a re-send.
      expect(mail.messageId).toBe(`<${deliveryJobId(api, sent.body.secret)}@gpumarket.test>`);
      const code = mailCode(mail);
      const expiries = expiryTimes(before, after).map(
        (time) => `It expires at ${time} UTC (in 10 minutes).`,
      );
      expect(mail.text).toContain(`Your GPU Marketplace verification code is: ${code}`);
      expect(expiries.some((line) => mail.text.includes(line))).toBe(true);
      expect(mail.html).toMatch(new RegExp(`<p[^>]*>${code}</p>`));
      expect(expiries.some((line) => mail.html.includes(`<p>${line}</p>`))).toBe(true);

      const login = await tfaLogin(api, user.auth, {
        tfa_method: 'email',
        code,
        secret: sent.body.secret,
      });
      expect(login.status).toBe(200);
      expect(login.body).toMatchObject({ success: true, id: user.id });
    });

    it('Twilio fails twice with 500, then accepts: the request is answered 200 and exactly one SMS is delivered, with the same code on every attempt', async () => {
      const user = await createTestUser(api);
      await authorizeByMail(user);
      const phone = testPhone();
      fake.program({ status: 500 }, { status: 500 });
      const sent = await sendSms(api, user.auth, { phone_number: phone });
      expect(sent.status).toBe(200);
      expect(sent.body.secret).toEqual(expect.any(String));
      expect(await deliverySettled(api, deliveryJobId(api, sent.body.secret))).toBe('completed');

      const posts = postsTo(phone);
      expect(posts.map((post) => post.status)).toEqual([500, 500, 201]);
      expect(new Set(posts.map((post) => new URLSearchParams(post.body).get('Body'))).size).toBe(1);
      const delivered = fake.messages.filter(toNumber(phone));
      expect(delivered).toHaveLength(1);
      const confirm = await confirmNew(api, user.auth, {
        tfa_method: 'sms',
        code: smsCode(delivered[0]),
        secret: sent.body.secret,
        phone_number: phone,
      });
      expect(confirm.status).toBe(200);
    });

    it('Twilio rejects the number (21211): the request gets 400 twilio_error, nothing is delivered and nothing retried', async () => {
      const user = await createTestUser(api);
      const phone = testPhone();
      fake.rejectNumber(phone);
      const sent = await sendSms(api, user.auth, { phone_number: phone });
      expect(sent.status).toBe(400);
      expect(sent.body).toEqual({ success: false, error: 'twilio_error', msg: expect.any(String) });
      expect(await queueDrained(api)).toEqual(DRAINED);
      const posts = postsTo(phone);
      expect(posts.map((post) => post.status)).toEqual([400]);
      expect(fake.messages.filter(toNumber(phone))).toHaveLength(0);
    });

    it("Twilio's own rate limit (429): the request gets 429 twilio_rate_limited, and the code is not sent behind the client's back", async () => {
      const user = await createTestUser(api);
      const phone = testPhone();
      fake.program({ status: 429 });
      const sent = await sendSms(api, user.auth, { phone_number: phone });
      expect(sent.status).toBe(429);
      expect(sent.body).toEqual({
        success: false,
        error: 'twilio_rate_limited',
        msg: expect.any(String),
      });
      expect(await queueDrained(api)).toEqual(DRAINED);
      expect(postsTo(phone).map((post) => post.status)).toEqual([429]);
      expect(fake.messages.filter(toNumber(phone))).toHaveLength(0);
    });
  });

  describe('api that does not wait for the first attempt (DELIVERY_FIRST_ATTEMPT_WAIT_MS=0)', () => {
    let api: TestApi;

    beforeAll(async () => {
      api = await startApi({
        REDIS_URL: redis.url,
        ...twilioEnv(fake),
        DELIVERY_BACKOFF_MS: '50',
        DELIVERY_FIRST_ATTEMPT_WAIT_MS: '0',
      });
    });
    afterAll(() => api.close());

    it("Twilio's 429 that nobody waits for is retried: the code is delivered once", async () => {
      const user = await createTestUser(api);
      const phone = testPhone();
      fake.program({ status: 429 });
      const sent = await sendSms(api, user.auth, { phone_number: phone });
      expect(sent.status).toBe(200);
      expect(await deliverySettled(api, deliveryJobId(api, sent.body.secret))).toBe('completed');
      expect(postsTo(phone).map((post) => post.status)).toEqual([429, 201]);
      expect(fake.messages.filter(toNumber(phone))).toHaveLength(1);
    });
  });

  describe('a worker process killed with SIGKILL while it holds jobs', () => {
    // A Redis of its own: BullMQ runs one stalled-jobs check per queue per interval, and the
    // earlier workers' 30 s default interval would hold back the short one set here.
    let own: OwnRedis;
    let api: TestApi;
    let env: Record<string, string>;
    const workers: WorkerProcess[] = [];

    beforeAll(async () => {
      own = await OwnRedis.start();
      env = {
        REDIS_URL: own.url,
        ...twilioEnv(fake),
        // Held provider answers must outlast the kill; the lease is twice this.
        TWILIO_TIMEOUT_MS: '2000',
        DELIVERY_JOB_LOCK_MS: '1000',
        DELIVERY_BACKOFF_MS: '200',
        DELIVERY_MAX_ATTEMPTS: '8',
        DELIVERY_FIRST_ATTEMPT_WAIT_MS: '0',
        RUN_WORKER: 'false',
      };
      api = await startApi(env);
    });
    afterAll(async () => {
      fake.release();
      await Promise.all(
        workers.map(async (worker) => {
          await atMost(worker.kill('SIGTERM'), 10_000);
          await worker.kill('SIGKILL');
        }),
      );
      await api.close();
      await own.stop();
    });

    it('every queued code is delivered exactly once: in-flight sends are reconciled with Twilio, waiting ones sent by the next worker', async () => {
      const queue = api.app.get(QueueRegistry).get('code-delivery');
      const phones = Array.from({ length: 10 }, () => testPhone());
      const users: TestUser[] = [];
      const secrets: string[] = [];
      // Queued while no worker runs, so the first worker takes 8 at once (its concurrency).
      for (const phone of phones) {
        const user = await createTestUser(api);
        users.push(user);
        const sent = await sendSms(api, user.auth, { phone_number: phone });
        expect(sent.status).toBe(200);
        secrets.push(sent.body.secret);
      }
      expect(await queue.getJobCounts('wait')).toEqual({ wait: 10 });

      fake.hold();
      const first = await spawnWorker(env);
      workers.push(first);
      const inFlight = await fake.waitForMessages((sms) => phones.includes(sms.to), 8);
      expect(await queue.getJobCounts('active', 'wait')).toEqual({ active: 8, wait: 2 });
      await first.kill('SIGKILL');
      expect(first.child.signalCode).toBe('SIGKILL');
      // Twilio accepted these 8 but the worker died before it heard so: nothing recorded them.
      expect(phones.flatMap(listingsOf)).toEqual([]);
      const heldPosts = phones.flatMap(postsTo);
      expect(heldPosts).toHaveLength(8);
      expect(heldPosts.every((post) => post.status === null)).toBe(true);
      fake.release();

      workers.push(await spawnWorker(env));
      await Promise.all(phones.map((phone) => fake.waitForMessages(toNumber(phone), 1)));
      // Bounded well below BullMQ's default 30 s stalled check, which would otherwise decide
      // when the jobs are taken over whatever DELIVERY_JOB_LOCK_MS says.
      for (const secret of secrets)
        expect(await deliverySettled(api, deliveryJobId(api, secret))).toBe('completed');

      for (const phone of phones) {
        expect(fake.messages.filter(toNumber(phone))).toHaveLength(1);
        expect(postsTo(phone)).toHaveLength(1);
      }
      const reconciled = inFlight.map((sms) => sms.to);
      for (const phone of reconciled) expect(listingsOf(phone).length).toBeGreaterThan(0);
      for (const phone of phones.filter((p) => !reconciled.includes(p)))
        expect(listingsOf(phone)).toEqual([]);

      // The codes that arrived are the challenges' codes: one per kind proves its number.
      const queued = phones.findIndex((p) => !reconciled.includes(p));
      for (const i of [phones.indexOf(reconciled[0]), queued]) {
        await authorizeByEmail(api, users[i]);
        const [sms] = fake.messages.filter(toNumber(phones[i]));
        await api
          .http()
          .post('/api/v0/tfa/confirm-new/')
          .set(users[i].auth)
          .send({
            tfa_method: 'sms',
            code: smsCode(sms),
            secret: secrets[i],
            phone_number: phones[i],
          })
          .expect(200);
      }
    });
  });

  describe('Redis restarted under a running api and worker process', () => {
    let persistDir: string;
    let own: OwnRedis;
    let api: TestApi;
    let worker: WorkerProcess;

    beforeAll(async () => {
      persistDir = await mkdtemp(join(tmpdir(), 'delivery-redis-'));
      own = await OwnRedis.start({ persistDir });
      const env = {
        REDIS_URL: own.url,
        ...twilioEnv(fake),
        // Long enough that the retry is still scheduled when Redis goes down.
        DELIVERY_BACKOFF_MS: '2000',
        RUN_WORKER: 'false',
      };
      api = await startApi(env);
      worker = await spawnWorker(env);
    });
    afterAll(async () => {
      // The processes shut down gracefully only with Redis there (a failed test may leave it down).
      if (!own.running) await own.start();
      await atMost(worker.kill('SIGTERM'), 10_000);
      await worker.kill('SIGKILL');
      await api.close();
      await own.stop();
      await rm(persistDir, { recursive: true, force: true });
    });

    const workerAlive = () => worker.child.exitCode === null && worker.child.signalCode === null;
    const readiness = (status: number) =>
      eventually(
        () => api.http().get('/health/ready'),
        (response) => response.status === status,
      );

    it('with its data kept: a retry scheduled before the restart is delivered after it, exactly once', async () => {
      const user = await createTestUser(api);
      const phone = testPhone();
      fake.program({ status: 503 });
      const sent = await sendSms(api, user.auth, { phone_number: phone });
      expect(sent.status).toBe(200);
      const jobId = deliveryJobId(api, sent.body.secret);
      const job = await api.app.get(QueueRegistry).get('code-delivery').getJob(jobId);
      expect(
        await eventually(
          () => job!.getState(),
          (state) => state === 'delayed',
        ),
      ).toBe('delayed');

      await own.stop();
      // Nothing went out before Redis went down: the delivery below happens after the restart.
      expect(fake.messages.filter(toNumber(phone))).toHaveLength(0);
      await own.start();

      await fake.waitForMessages(toNumber(phone), 1, 20_000);
      expect((await readiness(200)).status).toBe(200);
      expect(await deliverySettled(api, jobId)).toBe('completed');
      expect(postsTo(phone).map((post) => post.status)).toEqual([503, 201]);
      expect(fake.messages.filter(toNumber(phone))).toHaveLength(1);
      expect(workerAlive()).toBe(true);
    });

    it('with its data lost: sends fail cleanly while it is down, and sends after the restart are delivered by the same processes', async () => {
      const user = await createTestUser(api);
      await own.stop();
      await rm(join(persistDir, 'appendonlydir'), { recursive: true, force: true });
      expect((await readiness(503)).status).toBe(503);
      const refused = await sendSms(api, user.auth, { phone_number: testPhone() });
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: 503,
        body: { success: false, error: 'service_unavailable', msg: expect.any(String) },
      });

      await own.start();
      expect((await readiness(200)).status).toBe(200);
      const phone = testPhone();
      const sent = await sendSms(api, user.auth, { phone_number: phone });
      expect(sent.status).toBe(200);
      const [sms] = await fake.waitForMessages(toNumber(phone), 1, 20_000);
      expect(await deliverySettled(api, deliveryJobId(api, sent.body.secret))).toBe('completed');
      expect(fake.messages.filter(toNumber(phone))).toHaveLength(1);
      expect(postsTo(phone)).toHaveLength(1);
      expect(workerAlive()).toBe(true);

      // The whole flow works on the emptied Redis: the code proves the number.
      await authorizeByEmail(api, user);
      await confirmNew(api, user.auth, {
        tfa_method: 'sms',
        code: smsCode(sms),
        secret: sent.body.secret,
        phone_number: phone,
      }).expect(200);
    });
  });
});
