/**
 * Test processes talk to their own database and Redis index, so tests never touch
 * development data. Override with TEST_DATABASE_URL / TEST_REDIS_URL. Both belong to the
 * test run: global setup creates and migrates the database, global teardown drops it and
 * empties the Redis index (test/support/global-teardown.ts).
 */
export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/gpumarket_test';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/1';

/** The test database's name, e.g. `gpumarket_test`. */
export const TEST_DATABASE_NAME = decodeURIComponent(
  new URL(TEST_DATABASE_URL).pathname.replace(/^\//, ''),
);

/**
 * Prefix of the extra databases a test creates (`<test database>_tmp_<purpose>_<random>`);
 * global teardown drops every database with it, so one left by a crashed test goes too.
 */
export const TEMPORARY_DATABASE_PREFIX = `${TEST_DATABASE_NAME}_tmp_`;

/** The URL of a new, not yet created, database for one test; global teardown drops it. */
export function temporaryDatabaseUrl(purpose: string): { name: string; url: string } {
  const name = `${TEMPORARY_DATABASE_PREFIX}${purpose}_${Math.random().toString(36).slice(2, 10)}`;
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

process.env.NODE_ENV = 'test';
process.env.DATABASE_URL = TEST_DATABASE_URL;
process.env.REDIS_URL = TEST_REDIS_URL;
process.env.RATE_LIMITS ??= 'off';
process.env.LOG_LEVEL ??= 'silent';
// Any free port for each process's metrics listener: test processes run side by side.
process.env.METRICS_PORT ??= '0';
