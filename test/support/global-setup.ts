import Redis from 'ioredis';
import { mkdirSync } from 'node:fs';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
// globalSetup runs outside jest's module registry, so path aliases are not available here.
import {
  dataSourceOptions,
  ensureDatabaseExists,
  runMigrations,
} from '../../libs/platform/src/infrastructure/database/database-setup';
import {
  TEMPORARY_DATABASE_PREFIX,
  TEST_DATABASE_NAME,
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
} from './test-env';
import { startRun } from './test-run';

/**
 * Marks the run (see test-run.ts), gives it its own temporary directory, then creates the
 * test database and applies migrations once, before any test file runs. What an earlier
 * run that was killed before its teardown left goes first (global-teardown.ts removes it at
 * the end of a run that completes): its temporary databases, its test database's rows
 * (tests that create fixed names, such as the documentation's examples, would meet them)
 * and its Redis index's keys (rate-limit windows, queues).
 */
export default async function globalSetup(): Promise<void> {
  if (new URL(TEST_REDIS_URL).pathname.replace(/^\//, '') in { '': 1, '0': 1 }) {
    // Teardown empties the test index; index 0 is where development data lives by default.
    throw new Error(`TEST_REDIS_URL (${TEST_REDIS_URL}) must select its own Redis index, not 0`);
  }
  const { tmpDir } = startRun();
  mkdirSync(tmpDir, { recursive: true });
  await dropStaleDatabases();
  await emptyTestRedisIndex();
  await ensureDatabaseExists(TEST_DATABASE_URL);
  const dataSource = new DataSource(dataSourceOptions(TEST_DATABASE_URL));
  await dataSource.initialize();
  try {
    await runMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/**
 * The test database and the temporary databases of an earlier run that was killed before
 * its teardown. A test database whose name lacks "test" is someone's real database given by
 * mistake: never dropped (as in the teardown).
 */
async function dropStaleDatabases(): Promise<void> {
  const adminUrl = new URL(TEST_DATABASE_URL);
  adminUrl.pathname = '/postgres';
  const admin = new Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  try {
    const stale = await admin.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
      [TEMPORARY_DATABASE_PREFIX],
    );
    const names = stale.rows.map((row) => row.datname);
    if (/test/i.test(TEST_DATABASE_NAME)) names.push(TEST_DATABASE_NAME);
    for (const name of names) {
      await admin.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
    }
  } finally {
    await admin.end();
  }
}

/** The test Redis index, emptied (never index 0: checked above). */
async function emptyTestRedisIndex(): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await redis.connect();
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
}
