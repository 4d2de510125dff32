import Redis from 'ioredis';
import { rmSync } from 'node:fs';
import { Client } from 'pg';
import {
  TEMPORARY_DATABASE_PREFIX,
  TEST_DATABASE_NAME,
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
} from './test-env';
import { processesOfRun, RUN_MARKER_VARIABLE } from './test-run';

/**
 * Leaves the machine as the run found it, and proves it: no process of the run alive, the
 * test database and every temporary database dropped, the test Redis index empty, the
 * run's temporary directory removed. Anything found left over is cleaned up and then fails
 * the run, naming it, so a test that leaks is noticed instead of piling up.
 */
export default async function globalTeardown(): Promise<void> {
  const problems: string[] = [];
  const marker = process.env[RUN_MARKER_VARIABLE];

  if (marker) {
    // jest's own workers may still be on their way out: give them a moment, by condition.
    const isWorker = (command: string) => /jest-worker|processChild/.test(command);
    const deadline = Date.now() + 10_000;
    let left = processesOfRun(marker);
    while (left.length > 0 && left.every((p) => isWorker(p.command)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      left = processesOfRun(marker);
    }
    for (const leftover of left.filter((p) => !isWorker(p.command))) {
      problems.push(`process ${leftover.pid} still running: ${leftover.command}`);
      try {
        process.kill(leftover.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }

  const adminUrl = new URL(TEST_DATABASE_URL);
  adminUrl.pathname = '/postgres';
  const admin = new Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  try {
    const ours = async () =>
      (
        await admin.query<{ datname: string }>(
          `SELECT datname FROM pg_database WHERE datname = $1 OR starts_with(datname, $2)`,
          [TEST_DATABASE_NAME, TEMPORARY_DATABASE_PREFIX],
        )
      ).rows.map((row) => row.datname);
    // A name without "test" is someone's real database given by mistake: never dropped.
    const mayDrop = (name: string) => name !== TEST_DATABASE_NAME || /test/i.test(name);
    for (const name of (await ours()).filter(mayDrop)) {
      if (name !== TEST_DATABASE_NAME) problems.push(`temporary database ${name} left behind`);
      await admin.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
    }
    const remaining = (await ours()).filter(mayDrop);
    if (remaining.length > 0) problems.push(`databases not dropped: ${remaining.join(', ')}`);
  } finally {
    await admin.end();
  }

  // The index belongs to the test run: challenges, rate-limit windows and queues of every
  // test file live there, many with expiries longer than the run.
  // Index 0 is where development data lives by default: never emptied.
  const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await redis.connect();
    if (redis.options.db === 0) {
      throw new Error(
        `TEST_REDIS_URL (${TEST_REDIS_URL}) selects Redis index 0; give tests their own index`,
      );
    }
    await redis.flushdb();
    const keys = await redis.dbsize();
    if (keys !== 0) problems.push(`${keys} keys left in ${TEST_REDIS_URL}`);
  } finally {
    redis.disconnect();
  }

  if (process.env.TMPDIR?.includes('gpumarket-test-')) {
    rmSync(process.env.TMPDIR, { recursive: true, force: true });
  }

  if (problems.length > 0) {
    throw new Error(
      `The test run left things behind (now cleaned up):\n  - ${problems.join('\n  - ')}`,
    );
  }
}
