/**
 * Test processes talk to their own database and Redis index, so tests never touch
 * development data. Override with TEST_DATABASE_URL / TEST_REDIS_URL.
 */
export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/gpumarket_test';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/1';

process.env.NODE_ENV = 'test';
process.env.DATABASE_URL = TEST_DATABASE_URL;
process.env.REDIS_URL = TEST_REDIS_URL;
process.env.RATE_LIMITS ??= 'off';
process.env.LOG_LEVEL ??= 'silent';
