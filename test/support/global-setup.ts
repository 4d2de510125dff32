import { mkdirSync } from 'node:fs';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
// globalSetup runs outside jest's module registry, so path aliases are not available here.
import {
  dataSourceOptions,
  ensureDatabaseExists,
  runMigrations,
} from '../../libs/platform/src/infrastructure/database/database-setup';
import { TEMPORARY_DATABASE_PREFIX, TEST_DATABASE_URL, TEST_REDIS_URL } from './test-env';
import { startRun } from './test-run';

/**
 * Marks the run (see test-run.ts), gives it its own temporary directory, then creates the
 * test database and applies migrations once, before any test file runs. Temporary
 * databases left by an earlier run that was killed go first (global-teardown.ts drops them
 * at the end of a run that completes).
 */
export default async function globalSetup(): Promise<void> {
  if (new URL(TEST_REDIS_URL).pathname.replace(/^\//, '') in { '': 1, '0': 1 }) {
    // Teardown empties the test index; index 0 is where development data lives by default.
    throw new Error(`TEST_REDIS_URL (${TEST_REDIS_URL}) must select its own Redis index, not 0`);
  }
  const { tmpDir } = startRun();
  mkdirSync(tmpDir, { recursive: true });
  await dropStaleTemporaryDatabases();
  await ensureDatabaseExists(TEST_DATABASE_URL);
  const dataSource = new DataSource(dataSourceOptions(TEST_DATABASE_URL));
  await dataSource.initialize();
  try {
    await runMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/** Temporary databases of an earlier run that was killed before its teardown. */
async function dropStaleTemporaryDatabases(): Promise<void> {
  const adminUrl = new URL(TEST_DATABASE_URL);
  adminUrl.pathname = '/postgres';
  const admin = new Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  try {
    const stale = await admin.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
      [TEMPORARY_DATABASE_PREFIX],
    );
    for (const { datname } of stale.rows) {
      await admin.query(`DROP DATABASE IF EXISTS "${datname.replace(/"/g, '""')}" WITH (FORCE)`);
    }
  } finally {
    await admin.end();
  }
}
