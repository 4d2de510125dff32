import { join } from 'node:path';
import { Client, ClientConfig } from 'pg';
import { DataSource, DataSourceOptions, MigrationExecutor } from 'typeorm';
import { databaseNameOf } from '../../config/database-url';

/** Each context keeps its migrations in libs/<context>/src/infrastructure/migrations. */
export const MIGRATIONS_GLOB = join(
  __dirname,
  '..',
  '..',
  '..',
  '..',
  '*',
  'src',
  'infrastructure',
  'migrations',
  '*.{ts,js}',
);

const MIGRATION_LOCK_ID = 7_310_042;

/**
 * A pooled connection whose server process ends while the connection is checked out (idle
 * between queries, or handed out just as it was terminated) emits 'error' with no listener,
 * which Node turns into an uncaught exception that ends the process. Its queries still fail
 * and the pool drops it on release, so the event only needs a listener.
 */
class PooledClient extends Client {
  constructor(config?: string | ClientConfig) {
    super(config);
    this.on('error', () => undefined);
  }
}

/** The pool and server-side bounds of one process; see DatabaseLimits in platform-config. */
export interface PoolSettings {
  poolMax: number;
  poolWaitMs: number;
  statementTimeoutMs: number;
  lockTimeoutMs: number;
  /** application_name of the connections (pool-budget.ts connectionName). */
  applicationName?: string;
}

const DEFAULT_POOL: PoolSettings = {
  poolMax: 10,
  poolWaitMs: 5_000,
  statementTimeoutMs: 0,
  lockTimeoutMs: 0,
};

/**
 * The pg-pool error when no connection frees up within `connectionTimeoutMillis`: the
 * database is saturated, not gone (answered 503 with Retry-After, never 500).
 */
export const POOL_WAIT_TIMEOUT_MESSAGE = 'timeout exceeded when trying to connect';

export function dataSourceOptions(
  databaseUrl: string,
  pool: Partial<PoolSettings> = {},
): DataSourceOptions {
  const settings = { ...DEFAULT_POOL, ...pool };
  return {
    type: 'postgres',
    url: databaseUrl,
    migrations: [MIGRATIONS_GLOB],
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    migrationsRun: false,
    // Fail fast when the database is unreachable or saturated instead of hanging a request.
    // The statement and lock timeouts travel as startup parameters, so they hold on every
    // connection from its first query (behind PgBouncer, see docs/decisions.md).
    extra: {
      max: settings.poolMax,
      connectionTimeoutMillis: settings.poolWaitMs,
      idleTimeoutMillis: 30_000,
      Client: PooledClient,
      ...(settings.applicationName ? { application_name: settings.applicationName } : {}),
      ...(settings.statementTimeoutMs > 0
        ? { statement_timeout: settings.statementTimeoutMs }
        : {}),
      ...(settings.lockTimeoutMs > 0 ? { lock_timeout: settings.lockTimeoutMs } : {}),
    },
  };
}

/** Development convenience: creates the configured database when it does not exist. */
export async function ensureDatabaseExists(databaseUrl: string): Promise<boolean> {
  const url = new URL(databaseUrl);
  // Decoded as the driver decodes it, so the database created is the one it connects to.
  const name = databaseNameOf(databaseUrl);
  if (!name) return false;
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString(), connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    try {
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      return true;
    } catch (error) {
      // Another process created it between our check and our CREATE.
      if ((error as { code?: string }).code === '42P04') return false;
      throw error;
    }
  } finally {
    await client.end();
  }
}

/**
 * Applies pending migrations under an advisory lock, so several api processes or test
 * runners starting together apply each migration exactly once. They run on the locking
 * connection with no statement timeout (a migration may rewrite a large table); the lock
 * timeout stays, so a migration queued behind a long transaction fails instead of
 * stalling every request queued behind it.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await runner.query('SET statement_timeout = 0');
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'each';
    const applied = await executor.executePendingMigrations();
    return applied.map((migration) => migration.name);
  } finally {
    await runner.query('RESET statement_timeout').catch(() => undefined);
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await runner.release();
  }
}

export async function hasPendingMigrations(dataSource: DataSource): Promise<boolean> {
  return dataSource.showMigrations();
}
