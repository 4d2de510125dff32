import Redis from 'ioredis';
import { createServer } from 'node:net';
import { ConfigError } from '../config/config-error';
import { StartupError } from '../config/startup-error';
import { Client } from 'pg';
import type { DatabaseLimits } from '../config/platform-config';
import { dataSourceOptions, ensureDatabaseExists } from './database/database-setup';

/**
 * Checks run before the application is built, so that the mistakes a person makes when
 * starting a process (a port taken, a database not running, a wrong URL) end in one line
 * that names the setting to fix, instead of a framework stack trace.
 */

type NodeError = Error & { code?: string };

/** Where a URL points, without its credentials (they must not reach a terminal or a log). */
export function describeUrl(raw: string): string {
  try {
    const url = new URL(raw);
    const socketDir = url.searchParams.get('host');
    const where = socketDir ?? `${url.hostname}${url.port ? `:${url.port}` : ''}`;
    return `${where}${url.pathname.length > 1 ? url.pathname : ''}`;
  } catch {
    return 'the configured address';
  }
}

/** Fails with one line naming PORT (or HOST) when the api could not listen there. */
export async function assertCanListen(host: string, port: number): Promise<void> {
  // Port 0 asks the system for any free port: nothing can be in the way.
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeError) => reject(listenFailure(error, host, port)));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** The settings that name where a listener binds: the api's, or the metrics listener's. */
export interface ListenSettings {
  port: string;
  host: string;
}

/**
 * A listener that could not bind, as one line naming the setting to change; any other
 * error as it is.
 */
export function listenFailure(
  error: NodeError,
  host: string,
  port: number,
  names: ListenSettings = { port: 'PORT', host: 'HOST' },
): Error {
  switch (error.code) {
    case 'EADDRINUSE':
      return new StartupError(
        `Port ${port} is already in use on ${host}: stop the other process or set ${names.port} to a free port`,
      );
    case 'EACCES':
      return new StartupError(
        `Not allowed to listen on port ${port}: set ${names.port} to 1024 or above`,
      );
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new StartupError(
        `${names.host} ${host} is not an address of this machine: set ${names.host} (e.g. 0.0.0.0 or 127.0.0.1)`,
      );
    default:
      return error;
  }
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOENT', // a unix socket that is not there
]);

/**
 * Connects to PostgreSQL (and creates the configured database when it is missing, as the
 * data source would), then, given the pool's settings, opens one connection exactly as the
 * pool will (same startup parameters); a failure becomes one line naming DATABASE_URL, or
 * what a pooler in between needs.
 */
export async function checkDatabase(
  databaseUrl: string,
  pool?: Pick<DatabaseLimits, 'statementTimeoutMs' | 'lockTimeoutMs'>,
): Promise<void> {
  const where = describeUrl(databaseUrl);
  try {
    await ensureDatabaseExists(databaseUrl);
    if (pool) await connectAsThePool(databaseUrl, pool);
  } catch (error) {
    const { code, message } = error as NodeError;
    const refused = /unsupported startup parameter: (\S+)/.exec(message);
    if (refused) throw refusedStartupParameter(where, refused[1]);
    if ((code && UNREACHABLE.has(code)) || /timeout/i.test(message)) {
      throw new StartupError(
        `Cannot reach PostgreSQL at ${where} (${code ?? 'timeout'}): start it, or set DATABASE_URL`,
      );
    }
    throw new StartupError(
      `PostgreSQL at ${where} refused the connection: ${oneLine(message)}; check DATABASE_URL`,
    );
  }
}

/** One connection with the pool's own options (its startup parameters), closed at once. */
async function connectAsThePool(
  databaseUrl: string,
  pool: Pick<DatabaseLimits, 'statementTimeoutMs' | 'lockTimeoutMs'>,
): Promise<void> {
  const { extra } = dataSourceOptions(databaseUrl, { ...pool, poolMax: 1 }) as {
    extra: Record<string, unknown>;
  };
  const { statement_timeout, lock_timeout } = extra;
  const client = new Client({
    connectionString: databaseUrl,
    connectionTimeoutMillis: 5_000,
    ...(statement_timeout === undefined ? {} : { statement_timeout: statement_timeout as number }),
    ...(lock_timeout === undefined ? {} : { lock_timeout: lock_timeout as number }),
  });
  client.on('error', () => undefined);
  await client.connect();
  await client.end().catch(() => undefined);
}

/**
 * PgBouncer refuses a startup parameter it does not track (08P01 "unsupported startup
 * parameter: statement_timeout"); the api sends the statement and lock timeouts that way
 * (docs/decisions.md "PgBouncer"). One line with the two ways out.
 */
function refusedStartupParameter(where: string, parameter: string): StartupError {
  return new StartupError(
    `The server at ${where} (a pooler such as PgBouncer) refused the startup parameter ${parameter}: ` +
      'add statement_timeout,lock_timeout to its ignore_startup_parameters and set them on the ' +
      "database instead (ALTER DATABASE ... SET statement_timeout = '30s'), or set " +
      'DATABASE_STATEMENT_TIMEOUT_MS=0 and DATABASE_LOCK_TIMEOUT_MS=0 to send neither ' +
      '(docs/decisions.md "PgBouncer")',
  );
}

/**
 * One PING with a short timeout. Redis being down at start is not fatal (readiness reports
 * it and the api recovers when it comes back), so this returns a warning, not an error.
 */
export async function probeRedis(redisUrl: string, timeoutMs = 2_000): Promise<string | null> {
  const client = new Redis(redisUrl, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  // connect() rejects with "Connection is closed."; the cause comes as an 'error' event.
  let cause: NodeError | undefined;
  client.on('error', (error: NodeError) => (cause ??= error));
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (error) {
    const { code, message } = cause ?? (error as NodeError);
    return (
      `Redis at ${describeUrl(redisUrl)} is unreachable (${code ?? oneLine(message)}): 2FA ` +
      'codes and logins, rate-limited routes and code delivery answer 503 until it is ' +
      'reachable, and /health/ready reports it down; start Redis or set REDIS_URL'
    );
  } finally {
    client.disconnect();
  }
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/**
 * The one line printed when a process fails to start: a person's mistake as it is, anything
 * else (a bug) with its stack, which is what it takes to fix it.
 */
export function startupFailureMessage(error: unknown): string {
  if (error instanceof StartupError || error instanceof ConfigError) return error.message;
  const code = (error as NodeError | undefined)?.code;
  if (code === 'EADDRINUSE' || code === 'EACCES') {
    const { address, port } = error as { address?: string; port?: number };
    return listenFailure(error as NodeError, address ?? '0.0.0.0', port ?? 0).message;
  }
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
