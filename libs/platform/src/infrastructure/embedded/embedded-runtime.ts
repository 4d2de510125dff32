import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseBooleanSetting } from '../../config/boolean-setting';
import { Environment } from '../../config/environment';
import { StartupError } from '../../config/startup-error';
import { DataDirHolder, isAlive, lockFileOf, readHolder, tryLockDataDir } from './data-dir-lock';
import { PgliteSessionServer } from './pglite-session-server';

export const DEFAULT_EMBEDDED_DATA_DIR = join('.data', 'pglite');

export interface Runtime {
  env: Environment;
  embedded: boolean;
  /** Absolute path of the embedded data directory (embedded mode only). */
  dataDir?: string;
  /** True when this process uses the database the running api serves, not its own. */
  hostedByApi?: boolean;
  stop(): Promise<void>;
}

/** Which process asks: the api hosts the database; `manage` connects to it or opens it. */
export interface RuntimeRole {
  role: 'api' | 'manage';
  /** For messages to the other processes, e.g. "manage fixtures:load". */
  command: string;
}

function reachable(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((done) => {
    const socket = new Socket();
    const finish = (ok: boolean) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('error', () => finish(false));
    socket.connect(port, host, () => finish(true));
  });
}

/**
 * Embedded mode (development only): `EMBEDDED=true` (or any true word of
 * parseBooleanSetting, as the configuration reads it; DATABASE_URL and REDIS_URL are then
 * ignored), or automatically when neither is set and nothing answers at the default
 * PostgreSQL and Redis ports. Production never falls back (the config refuses EMBEDDED
 * there and requires both URLs).
 */
export async function wantsEmbedded(
  env: Environment,
  isReachable: (host: string, port: number) => Promise<boolean> = reachable,
): Promise<boolean> {
  // In production the configuration refuses EMBEDDED=true by name; nothing starts before.
  if (env.isProduction) return false;
  const flag = parseBooleanSetting(env.get('EMBEDDED'));
  if (flag !== undefined) {
    // A value the configuration refuses (null) starts nothing embedded: its one-line
    // refusal comes when the configuration loads.
    return flag === true;
  }
  if (env.get('DATABASE_URL') || env.get('REDIS_URL')) return false;
  const [postgres, redis] = await Promise.all([
    isReachable('127.0.0.1', 5432),
    isReachable('127.0.0.1', 6379),
  ]);
  return !postgres && !redis;
}

/** Nothing chooses the mode: no EMBEDDED, no DATABASE_URL or REDIS_URL, not production. */
function isAutomatic(env: Environment): boolean {
  return (
    !env.isProduction &&
    env.get('EMBEDDED') === undefined &&
    env.get('DATABASE_URL') === undefined &&
    env.get('REDIS_URL') === undefined
  );
}

/**
 * Whether an api runs embedded on `dataDir`. A `manage` command left to choose the mode by
 * itself then uses that api's database, even where PostgreSQL answers on the default port:
 * the README's `EMBEDDED=true npm start` followed by a plain `npm run manage -- ...` must
 * act on the database the api serves.
 */
function apiServes(dataDir: string): boolean {
  const holder = readHolder(lockFileOf(dataDir));
  return holder?.role === 'api' && holder.pid !== process.pid && isAlive(holder.pid);
}

export function embeddedDataDir(env: Environment): string {
  return resolve(env.get('EMBEDDED_DATA_DIR') ?? DEFAULT_EMBEDDED_DATA_DIR);
}

/** The pg connection string of the PostgreSQL unix socket in `socketDir`. */
function socketUrl(socketDir: string): string {
  return `postgres://postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}`;
}

/** How long `manage` waits for an api that holds the directory to start serving it. */
const API_SOCKET_WAIT_MS = 30_000;

/** The default DATABASE_POOL_WAIT_MS of the embedded mode: a turn may come late. */
const EMBEDDED_POOL_WAIT_MS = 30_000;

/**
 * Connections the embedded database accepts at once: the api's pool and several `manage`
 * commands' (each a pool and a set-up connection) fit with room to spare.
 */
const EMBEDDED_MAX_CONNECTIONS = 200;

/**
 * Resolves where the database is. Outside the embedded mode: the configured services. In
 * the embedded mode, the data directory is one process's database (PGlite), so exactly one
 * process opens it, under the lock file `<dir>.lock`:
 *  - the api opens it and serves it on a private unix socket that it records in the lock,
 *    so `manage` commands run while it is up use the same database through it;
 *  - `manage` with no api running opens it itself, for the length of the command;
 *  - any other opener is refused with one line that says who holds the directory.
 * Redis-backed stores use an in-process Redis and the delivery queue runs in-process (see
 * PlatformModule and the contexts' infrastructure modules).
 */
export async function resolveRuntime(env: Environment, who: RuntimeRole): Promise<Runtime> {
  const dataDir = embeddedDataDir(env);
  const embedded =
    (who.role === 'manage' && isAutomatic(env) && apiServes(dataDir)) || (await wantsEmbedded(env));
  if (!embedded) return { env, embedded: false, stop: async () => undefined };
  mkdirSync(resolve(dataDir, '..'), { recursive: true });
  const embeddedEnv = (databaseUrl: string) =>
    env.with({
      EMBEDDED: 'true',
      DATABASE_URL: databaseUrl,
      // PGlite is one session that connections take turns at (PgliteSessionServer): a small
      // pool is enough, and a request waits its turn behind another's transaction (a
      // `manage` command's, say) rather than failing after the usual 2 s.
      DATABASE_POOL_MAX: '3',
      DATABASE_POOL_WAIT_MS: env.get('DATABASE_POOL_WAIT_MS') ?? String(EMBEDDED_POOL_WAIT_MS),
    });

  const claim = tryLockDataDir(dataDir, who);
  if ('holder' in claim) {
    const socketDir = who.role === 'manage' ? await apiSocket(dataDir, claim.holder) : undefined;
    // An api that died while starting left its lock behind: take the directory after all.
    if (!socketDir && !isAlive(claim.holder.pid)) return resolveRuntime(env, who);
    if (!socketDir) throw busy(dataDir, claim.holder, who);
    return {
      env: embeddedEnv(socketUrl(socketDir)),
      embedded: true,
      dataDir,
      hostedByApi: true,
      stop: async () => undefined,
    };
  }

  const { lock } = claim;
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    mkdirSync(dataDir, { recursive: true });
    const db = await PGlite.create(dataDir);
    // A directory of our own (mode 0700): only this user can reach the database.
    const socketDir = mkdtempSync(join(tmpdir(), 'gpumarket-pglite-'));
    const server = new PgliteSessionServer(db, {
      path: join(socketDir, '.s.PGSQL.5432'),
      maxConnections: EMBEDDED_MAX_CONNECTIONS,
    });
    await server.start();
    // Only the api serves others: a manage command ends soon, and its clients with it.
    if (who.role === 'api') lock.publish(socketDir);
    let stopped = false;
    return {
      env: embeddedEnv(socketUrl(socketDir)),
      embedded: true,
      dataDir,
      stop: async () => {
        if (stopped) return;
        stopped = true;
        await server.stop();
        await db.close();
        rmSync(socketDir, { recursive: true, force: true });
        lock.release();
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}

/**
 * The socket directory of the api that holds `dataDir`, waiting while it starts (it takes
 * the lock before it opens the database); undefined when the holder is not an api.
 */
async function apiSocket(dataDir: string, holder: DataDirHolder): Promise<string | undefined> {
  const deadline = Date.now() + API_SOCKET_WAIT_MS;
  let current: DataDirHolder | null = holder;
  while (
    current?.role === 'api' &&
    !current.socketDir &&
    isAlive(current.pid) &&
    Date.now() < deadline
  ) {
    await sleep(100);
    current = readHolder(lockFileOf(dataDir));
  }
  return current?.role === 'api' ? current.socketDir : undefined;
}

function busy(dataDir: string, holder: DataDirHolder, who: RuntimeRole): StartupError {
  if (holder.role === 'api' && who.role === 'api') {
    return new StartupError(
      `The embedded database in ${dataDir} is already served by the api running as pid ` +
        `${holder.pid}: stop it, or give this one another EMBEDDED_DATA_DIR`,
    );
  }
  return new StartupError(
    `The embedded database in ${dataDir} is in use by pid ${holder.pid} (${holder.command}); ` +
      `wait for it to finish, or set EMBEDDED_DATA_DIR to another directory ` +
      `(if that process is gone, delete ${lockFileOf(dataDir)})`,
  );
}

export function embeddedBanner(dataDir: string): string {
  const lines = [
    ` EMBEDDED MODE: PostgreSQL is PGlite, its data in ${dataDir}`,
    ' (EMBEDDED_DATA_DIR); Redis, rate limits and the delivery queue run inside',
    ' this process. For development only. Set DATABASE_URL and REDIS_URL for real use.',
  ];
  const rule = '='.repeat(Math.max(...lines.map((line) => line.length)) + 1);
  return [rule, ...lines, rule].join('\n');
}
