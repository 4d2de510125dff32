import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { QueueRegistry } from '@app/platform';
import { createTestUser, DIST, spawnApi, startApi, TestApi } from '@test/support/api';
import { spawnWorker, twilioEnv } from '@test/support/delivery';
import { FakeTwilio, startFakeTwilio } from '@test/support/fake-twilio';
import { OwnRedis } from '@test/support/own-redis';
import { testPhone } from '@test/support/tfa';
import { sendSms } from '@test/support/tfa-requests';

/** Resolves once `received()` holds, checking again on every chunk the socket delivers. */
function readUntil(socket: Socket, received: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      if (!received(text)) return;
      socket.off('data', onData);
      resolve(text);
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
}

/** Polls until `probe` says yes; the test timeout bounds the wait. */
async function eventually(probe: () => Promise<boolean>): Promise<void> {
  while (!(await probe())) await sleep(20);
}

/** The api as an orchestrator sees it: separate OS processes, real signals. */
describe('api process lifecycle', () => {
  it('refuses to start in production without secrets, naming them', async () => {
    const child = spawn(process.execPath, [join(DIST, 'apps/api/src/main.js')], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: '0',
        SECRET_HMAC_KEY: '',
        ENCRYPTION_KEYS: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('Invalid configuration');
    expect(stderr).toContain('SECRET_HMAC_KEY is required in production');
    expect(stderr).toContain('ENCRYPTION_KEYS is required in production');
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('never falls back in production: no embedded parts, no services on localhost', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'gpumarket-prod-'));
    const dataDir = join(parent, 'pglite');
    const child = spawn(process.execPath, [join(DIST, 'apps/api/src/main.js')], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: '0',
        SECRET_HMAC_KEY: 'k'.repeat(40),
        ENCRYPTION_KEYS: `1:${Buffer.alloc(32, 1).toString('base64')}`,
        DATABASE_URL: '',
        REDIS_URL: '',
        EMBEDDED: 'true',
        EMBEDDED_DATA_DIR: dataDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(output).toContain('EMBEDDED is for development only');
    expect(output).toContain('DATABASE_URL is required in production');
    expect(output).toContain('REDIS_URL is required in production');
    expect(output).not.toContain('EMBEDDED MODE');
    expect(existsSync(dataDir)).toBe(false);
    rmSync(parent, { recursive: true, force: true });
  });

  it('reports not ready (503, redis down) when Redis is unreachable, while staying live', async () => {
    const api = await spawnApi({ REDIS_URL: 'redis://127.0.0.1:6390', RUN_WORKER: 'false' });
    try {
      const live = await fetch(`${api.url}/health/live`);
      expect(live.status).toBe(200);
      const ready = await fetch(`${api.url}/health/ready`);
      expect(ready.status).toBe(503);
      const body = (await ready.json()) as { error: Record<string, { status: string }> };
      expect(body.error.redis.status).toBe('down');
    } finally {
      await api.stop();
    }
  });

  it('finishes in-flight requests and exits 0 on SIGTERM', async () => {
    const api = await spawnApi();
    expect((await fetch(`${api.url}/health/ready`)).status).toBe(200);
    // A request already accepted when the signal arrives still gets its answer.
    const inFlight = fetch(`${api.url}/health/ready`);
    const exited = api.stop('SIGTERM');
    const answered = await inFlight;
    // Answered, not dropped: readiness already reports the drain to the orchestrator.
    expect([200, 503]).toContain(answered.status);
    if (answered.status === 503)
      expect(JSON.stringify(await answered.json())).toContain('draining');
    expect(await exited).toBe(0);
  });

  it('keeps serving through the grace period as "draining", then stops accepting and still answers the request in flight', async () => {
    const api = await spawnApi();
    const inFlight = connect(api.port, '127.0.0.1');
    try {
      // A request the server has started (its headers parsed, 100 Continue sent) whose body
      // only arrives after the listener has closed.
      const continued = readUntil(inFlight, (text) => text.includes('100 Continue'));
      inFlight.write(
        'POST /api/v0/volumes/unlist/ HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
          'Content-Type: application/json\r\nContent-Length: 9\r\nExpect: 100-continue\r\n\r\n',
      );
      await continued;
      const exited = api.stop('SIGTERM');

      let draining: Response | undefined;
      await eventually(async () => {
        const ready = await fetch(`${api.url}/health/ready`);
        if (ready.status === 200) return false;
        draining = ready;
        return true;
      });
      expect(draining!.status).toBe(503);
      expect(draining!.headers.get('connection')).toBe('close');
      const body = (await draining!.json()) as { error: Record<string, unknown> };
      expect(body.error.instance).toEqual({
        status: 'down',
        message: 'draining: shutting down',
      });

      await eventually(() =>
        fetch(`${api.url}/health/live`).then(
          () => false,
          (error: { cause?: { code?: string } }) => error.cause?.code === 'ECONNREFUSED',
        ),
      );
      expect(api.child.exitCode).toBeNull();
      const answer = readUntil(inFlight, (text) => /\r\n\r\n\{.*\}$/s.test(text));
      const ended = new Promise((resolve) => inFlight.once('end', resolve));
      inFlight.write('{"id": 1}');
      const response = await answer;
      expect(response).toMatch(/^HTTP\/1\.1 403 /m);
      expect(response).toMatch(/^Connection: close\r$/im);
      expect(response).toContain('"error":"auth_error"');
      await ended;
      expect(await exited).toBe(0);
    } finally {
      inFlight.destroy();
      if (api.child.exitCode === null) api.child.kill('SIGKILL');
    }
  });
});

/** The delivery worker as its own process: SIGTERM lets the running job finish. */
describe('worker process lifecycle', () => {
  let redis: OwnRedis;
  let fake: FakeTwilio;
  let api: TestApi;
  let env: Record<string, string>;

  beforeAll(async () => {
    // Redis of its own: no other worker may take this test's job.
    redis = await OwnRedis.start();
    fake = await startFakeTwilio();
    env = { ...twilioEnv(fake), REDIS_URL: redis.url, DELIVERY_FIRST_ATTEMPT_WAIT_MS: '0' };
    api = await startApi({ ...env, RUN_WORKER: 'false' });
  });

  afterAll(async () => {
    fake?.release();
    await api?.close();
    await fake?.close();
    await redis?.stop();
  });

  it('finishes the job it is running, then exits 0 on SIGTERM', async () => {
    const worker = await spawnWorker(env);
    try {
      const user = await createTestUser(api);
      const phone = testPhone();
      fake.hold();
      await sendSms(api, user.auth, { phone_number: phone }).expect(200);
      // The provider has the message; its answer is held, so the job is running.
      await fake.waitForMessages((sms) => sms.to === phone, 1);
      const queue = api.app.get(QueueRegistry).get('code-delivery');
      expect(await queue.getJobCounts('active')).toEqual({ active: 1 });

      const exited = worker.kill('SIGTERM');
      fake.release();
      await exited;
      expect(worker.child.exitCode).toBe(0);
      // Completed (and removed), not abandoned mid-flight for another worker to redo.
      expect(await queue.getJobCounts('active', 'waiting', 'delayed', 'failed')).toMatchObject({
        active: 0,
        waiting: 0,
        delayed: 0,
        failed: 0,
      });
    } finally {
      await worker.kill('SIGKILL');
    }
  });
});
