import { spawn } from 'node:child_process';
import { DIST, runManage, spawnApi } from '@test/support/api';
import { FakePgBouncer } from '@test/support/fake-pgbouncer';
import { OwnRedis } from '@test/support/own-redis';
import { TEST_DATABASE_URL } from '@test/support/test-env';

/**
 * Behind PgBouncer as it is usually configured (ignore_startup_parameters left at its
 * default), the connection with the statement and lock timeouts the pool sends is refused:
 * the api, the worker and manage stop with one line naming what to change, never a stack.
 * Configured as the docs say, the api starts and serves through it. (The real PgBouncer
 * runs in `npm run bench:pgbouncer`.)
 */
const FIX =
  /^The server at 127\.0\.0\.1:\d+\/\w+ \(a pooler such as PgBouncer\) refused the startup parameter (statement_timeout|lock_timeout): add statement_timeout,lock_timeout to its ignore_startup_parameters and set them on the database instead \(ALTER DATABASE \.\.\. SET statement_timeout = '30s'\), or set DATABASE_STATEMENT_TIMEOUT_MS=0 and DATABASE_LOCK_TIMEOUT_MS=0 to send neither \(docs\/decisions\.md "PgBouncer"\)$/;

function runUntilExit(entry: string, env: Record<string, string>, args: string[] = []) {
  return new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [`${DIST}/${entry}`, ...args], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('behind a pooler that refuses a startup parameter (PgBouncer defaults)', () => {
  let strict: FakePgBouncer;
  let configured: FakePgBouncer;
  let redis: OwnRedis;

  beforeAll(async () => {
    const server = new URL(TEST_DATABASE_URL);
    const target = { host: server.hostname, port: Number(server.port || 5432) };
    [strict, configured, redis] = await Promise.all([
      FakePgBouncer.start(target),
      FakePgBouncer.start(target, ['extra_float_digits', 'statement_timeout', 'lock_timeout']),
      OwnRedis.start(),
    ]);
  });
  afterAll(async () => {
    await strict?.close();
    await configured?.close();
    await redis?.stop();
  });

  it.each([
    ['the api', 'apps/api/src/main.js'],
    ['the worker', 'apps/worker/src/main.js'],
  ])('stops %s with one line naming the fix', async (_name, entry) => {
    const result = await runUntilExit(entry, {
      DATABASE_URL: strict.url(TEST_DATABASE_URL),
      REDIS_URL: redis.url,
      RUN_WORKER: 'false',
    });
    expect(result.code).toBe(1);
    const lines = result.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(FIX);
  });

  it('stops manage with that line as its JSON error', async () => {
    const result = await runManage(['outbox:list'], {
      DATABASE_URL: strict.url(TEST_DATABASE_URL),
      REDIS_URL: redis.url,
    });
    expect(result.code).toBe(1);
    const error = JSON.parse(result.stderr.trim()) as { error: string; msg: string };
    expect(error.error).toBe('startup_error');
    // manage sends no statement timeout by default: the lock timeout is the one refused.
    expect(error.msg).toMatch(FIX);
    expect(error.msg).toContain('lock_timeout:');
  });

  it('starts and serves once the pooler ignores the two parameters', async () => {
    const api = await spawnApi({
      DATABASE_URL: configured.url(TEST_DATABASE_URL),
      REDIS_URL: redis.url,
      RUN_WORKER: 'false',
      SHUTDOWN_GRACE_MS: '0',
    });
    try {
      expect((await fetch(`${api.url}/health/ready`)).status).toBe(200);
    } finally {
      expect(await api.stop()).toBe(0);
    }
  });
});
