import { mkdirSync } from 'node:fs';
import { Socket } from 'node:net';
import { resolve } from 'node:path';
import { Environment } from '../../config/environment';

export const EMBEDDED_DATA_DIR = resolve(process.cwd(), '.data', 'pglite');

export interface Runtime {
  env: Environment;
  embedded: boolean;
  stop(): Promise<void>;
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
 * Embedded mode (development only): `EMBEDDED=true` (DATABASE_URL and REDIS_URL are then
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
  const flag = env.get('EMBEDDED')?.toLowerCase();
  if (flag === 'true') return true;
  if (flag === 'false') return false;
  if (env.get('DATABASE_URL') || env.get('REDIS_URL')) return false;
  const [postgres, redis] = await Promise.all([
    isReachable('127.0.0.1', 5432),
    isReachable('127.0.0.1', 6379),
  ]);
  return !postgres && !redis;
}

/**
 * Starts PGlite (real PostgreSQL compiled to WebAssembly, data under ./.data/pglite) behind
 * a PostgreSQL wire-protocol socket, so the same pg driver, TypeORM data source and
 * migrations run unchanged. Redis-backed stores use an in-process Redis and the delivery
 * queue runs in-process (see PlatformModule and the contexts' infrastructure modules).
 */
export async function resolveRuntime(env: Environment): Promise<Runtime> {
  if (!(await wantsEmbedded(env))) return { env, embedded: false, stop: async () => undefined };
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const dataDir = env.get('EMBEDDED_DATA_DIR') ?? EMBEDDED_DATA_DIR;
  mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir);
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 20 });
  await server.start();
  const address = server.getServerConn();
  const databaseUrl = `postgres://postgres@${address}/postgres`;
  return {
    // PGlite is one session behind the socket: a small pool keeps transactions short-queued.
    env: env.with({ EMBEDDED: 'true', DATABASE_URL: databaseUrl, DATABASE_POOL_MAX: '3' }),
    embedded: true,
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}

export const EMBEDDED_BANNER = [
  '==================================================================',
  ' EMBEDDED MODE: PostgreSQL is PGlite (data in ./.data/pglite) and',
  ' Redis, rate limits and the delivery queue run inside this process.',
  ' For development only. Set DATABASE_URL and REDIS_URL for real use.',
  '==================================================================',
].join('\n');
