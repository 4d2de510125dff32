/**
 * `npm run bench:pgbouncer` (opt-in, not part of `npm test`): runs the built api through
 * PgBouncer in transaction pooling mode configured as the shipped topology configures it
 * (the pgbouncer service of docker/compose.scale.yml: pool mode, ignored startup
 * parameters, client and pool sizes; the api's settings of that file;
 * docker/postgres/session-timeouts.sql on the database), and checks that it works there:
 * first that PgBouncer's defaults stop the api with the one line naming the fix, then the
 * migrations are applied directly (their advisory lock and SET need a session), and the
 * api and `manage` talk only to PgBouncer. Exercises the routes that write in transactions
 * (users, 2FA authorization with the outbox worker, endpoint groups, password login and
 * logout, the charges report), 120 charges reports, then 64 concurrent connections for a
 * few seconds, and prints what it saw. Needs the `pgbouncer` binary (Debian: `apt-get
 * install pgbouncer`; PGBOUNCER_BIN overrides the path).
 *
 * Environment (all optional):
 *   PGBOUNCER_DATABASE_URL  postgres://postgres@127.0.0.1:5432/gpumarket_bench_pgbouncer (dropped and recreated)
 *   PGBOUNCER_REDIS_URL     redis://127.0.0.1:6379/12 (flushed)
 *   PGBOUNCER_SECONDS       10   seconds of concurrent load
 *   PGBOUNCER_PREPARED_STATEMENTS  the api's DATABASE_PREPARED_STATEMENTS instead of the
 *                           shipped file's (true: what named statements do through it)
 */
import { ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { parseAllDocuments } from 'yaml';
import { Agent } from 'node:http';
import { flushRedis, jsonRequest, resetDatabase } from './load-setup';
import { assertLoopback, deadline, DIST, log, runManage, startServer, stopAll } from './processes';

const DATABASE_URL =
  process.env.PGBOUNCER_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/gpumarket_bench_pgbouncer';
const REDIS_URL = process.env.PGBOUNCER_REDIS_URL ?? 'redis://127.0.0.1:6379/12';
const SECONDS = Number(process.env.PGBOUNCER_SECONDS ?? 10);
const ROOT = join(DIST, '..');

/** The shipped topology: the pgbouncer service's and the api's environment in compose.scale.yml. */
function shippedTopology(): { pgbouncer: Record<string, string>; app: Record<string, string> } {
  const compose = parseAllDocuments(readFileSync(join(ROOT, 'docker/compose.scale.yml'), 'utf8'), {
    merge: true,
  })[0].toJS() as { services: Record<string, { environment: Record<string, string> }> };
  return {
    pgbouncer: compose.services.pgbouncer.environment,
    app: compose.services.api.environment,
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function pgbouncerBinary(): string {
  const candidate = process.env.PGBOUNCER_BIN ?? 'pgbouncer';
  try {
    execFileSync(candidate, ['--version'], { stdio: 'ignore' });
    return candidate;
  } catch {
    for (const path of ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer']) {
      try {
        execFileSync(path, ['--version'], { stdio: 'ignore' });
        return path;
      } catch {
        // next
      }
    }
  }
  throw new Error('pgbouncer not found: apt-get install pgbouncer, or set PGBOUNCER_BIN');
}

/**
 * A private PgBouncer in transaction mode in front of the database's server. The client
 * side trusts loopback like the test server does; the timeouts the api sends as startup
 * parameters are ignored by PgBouncer 1.18 (no track_extra_parameters), so they are set on
 * the database instead, as the docs ask.
 */
async function startPgbouncer(
  target: URL,
  settings: Record<string, string>,
): Promise<{ port: number; child: ChildProcess; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'gpumarket-pgbouncer-'));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const user = decodeURIComponent(target.username || 'postgres');
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" ""\n`);
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${target.hostname} port=${target.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      // The image's entrypoint maps these variables to the settings of the same name.
      `pool_mode = ${settings.POOL_MODE ?? 'session'}`,
      `default_pool_size = ${settings.DEFAULT_POOL_SIZE ?? 20}`,
      `max_client_conn = ${settings.MAX_CLIENT_CONN ?? 100}`,
      `ignore_startup_parameters = ${settings.IGNORE_STARTUP_PARAMETERS ?? 'extra_float_digits'}`,
      ...(settings.MAX_PREPARED_STATEMENTS
        ? [`max_prepared_statements = ${settings.MAX_PREPARED_STATEMENTS}`]
        : []),
      '',
    ].join('\n'),
  );
  for (const file of ['userlist.txt', 'pgbouncer.ini']) chmodSync(join(dir, file), 0o644);
  // PgBouncer refuses to run as root; -u drops to the database's own system user.
  const asRoot = process.getuid?.() === 0 ? ['-u', 'postgres'] : [];
  const child = spawn(pgbouncerBinary(), [...asRoot, join(dir, 'pgbouncer.ini')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // Ready once it accepts connections.
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited: ${output}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) break;
    if (i > 100) throw new Error(`pgbouncer did not listen: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { port, child, dir };
}

interface Check {
  step: string;
  status: number;
  ok: boolean;
}

async function main(): Promise<void> {
  assertLoopback('PGBOUNCER_DATABASE_URL', DATABASE_URL);
  assertLoopback('PGBOUNCER_REDIS_URL', REDIS_URL);
  deadline(10);
  const direct = new URL(DATABASE_URL);
  await resetDatabase(DATABASE_URL);
  await flushRedis(REDIS_URL);
  const baseEnv = {
    ...process.env,
    NODE_ENV: 'development',
    EMBEDDED: 'false',
    REDIS_URL,
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'warn',
  };
  const shipped = shippedTopology();
  const checks: Check[] = [];

  // PgBouncer's own default (ignore_startup_parameters = extra_float_digits): the api must
  // stop with the one line naming the fix, not a stack.
  const defaults = await startPgbouncer(direct, {
    ...shipped.pgbouncer,
    IGNORE_STARTUP_PARAMETERS: 'extra_float_digits',
  });
  try {
    const viaDefaults = new URL(DATABASE_URL);
    viaDefaults.port = String(defaults.port);
    const refused = spawnSync(process.execPath, [join(DIST, 'apps/api/src/main.js')], {
      env: {
        ...baseEnv,
        DATABASE_URL: viaDefaults.toString(),
        PORT: '0',
        HOST: '127.0.0.1',
        METRICS_PORT: '0',
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    const lines = refused.stderr.split('\n').filter(Boolean);
    checks.push({
      step: `PgBouncer defaults: the api exits 1 with one line naming ignore_startup_parameters (${lines[0]?.slice(0, 90)}...)`,
      status: refused.status ?? -1,
      ok:
        refused.status === 1 &&
        lines.length === 1 &&
        lines[0].includes('ignore_startup_parameters'),
    });
  } finally {
    defaults.child.kill('SIGTERM');
    rmSync(defaults.dir, { recursive: true, force: true });
  }

  // Migrations on a session of their own, straight to PostgreSQL; the timeouts on the
  // database, as docker/postgres/session-timeouts.sql sets them, since PgBouncer drops them
  // from the startup packet.
  await runManage(['migration:run'], { ...baseEnv, DATABASE_URL });
  const name = decodeURIComponent(direct.pathname.slice(1));
  const admin = new (await import('pg')).Client({ connectionString: DATABASE_URL });
  await admin.connect();
  const timeouts = readFileSync(join(ROOT, 'docker/postgres/session-timeouts.sql'), 'utf8')
    .split('\n')
    .filter((line) => /^ALTER DATABASE/.test(line))
    .map((line) => line.replace('ALTER DATABASE gpumarket', `ALTER DATABASE "${name}"`));
  for (const statement of timeouts) await admin.query(statement);
  await admin.end();

  const bouncer = await startPgbouncer(direct, shipped.pgbouncer);
  const viaBouncer = new URL(DATABASE_URL);
  viaBouncer.port = String(bouncer.port);
  // The api's settings of the shipped file that concern PgBouncer.
  const env = {
    ...baseEnv,
    DATABASE_URL: viaBouncer.toString(),
    MIGRATIONS_RUN: 'false',
    DATABASE_PREPARED_STATEMENTS:
      process.env.PGBOUNCER_PREPARED_STATEMENTS ??
      shipped.app.DATABASE_PREPARED_STATEMENTS ??
      'true',
    METRICS_PORT: '0',
  };
  try {
    const api = await startServer(
      'api',
      join(DIST, 'apps/api/src/main.js'),
      { ...env, RUN_WORKER: 'true', PORT: '0', HOST: '127.0.0.1' },
      'api listening',
    );
    const agent = new Agent({ keepAlive: true });
    const call = async (
      step: string,
      method: string,
      path: string,
      key: string,
      body?: unknown,
    ) => {
      const response = await jsonRequest(
        agent,
        method,
        `${api.url}${path}`,
        key ? { Authorization: `Bearer ${key}` } : {},
        body,
      );
      checks.push({ step, status: response.status, ok: response.status === 200 });
      return response;
    };
    const email = `bouncer-${Date.now()}@bench.gpumarket.test`;
    const created = (await runManage(
      ['user:create', '--email', email, '--password', 'a long pgbouncer password', '--verified'],
      env,
    )) as { id: number; api_key: string };
    const key = created.api_key;
    await call('GET /health/ready', 'GET', '/health/ready', '');
    await call('GET users/current', 'GET', '/api/v0/users/current/', key);
    const group = await call('POST endptjobs', 'POST', '/api/v0/endptjobs/', key, {
      endpoint_name: 'bouncer',
    });
    const id = group.body.result as number;
    await call('PUT endptjobs/{id}', 'PUT', `/api/v0/endptjobs/${id}/`, key, { min_load: 4 });
    await call('GET endptjobs', 'GET', '/api/v0/endptjobs/', key);
    await call(
      'POST tfa/authorize-new-method (email, outbox worker)',
      'POST',
      '/api/v0/tfa/authorize-new-method/',
      key,
      {
        tfa_method: 'email',
      },
    );
    const login = await call('POST users/login', 'POST', '/api/v0/users/login/', '', {
      email,
      password: 'a long pgbouncer password',
    });
    const session = login.body.session_key as string;
    await call('POST users/logout', 'POST', '/api/v0/users/logout/', session);
    const after = await jsonRequest(agent, 'GET', `${api.url}/api/v0/users/current/`, {
      Authorization: `Bearer ${session}`,
    });
    checks.push({ step: 'ended session -> 404', status: after.status, ok: after.status === 404 });
    const now = Math.floor(Date.now() / 1000);
    const filters = encodeURIComponent(
      JSON.stringify({ day: { gte: now - 7 * 86_400, lte: now } }),
    );
    await call(
      'GET charges',
      'GET',
      `/api/v0/charges/?select_filters=${filters}&latest_first=false&limit=20&format=table`,
      key,
    );
    // The charges report 120 times, 8 at a time: its statements are the prepared kind
    // (named, when DATABASE_PREPARED_STATEMENTS allows), and transaction pooling hands each
    // one a different server connection.
    const reports: number[] = [];
    for (let round = 0; round < 15; round += 1) {
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          jsonRequest(
            agent,
            'GET',
            `${api.url}/api/v0/charges/?select_filters=${filters}&latest_first=false&limit=20&format=table`,
            { Authorization: `Bearer ${key}` },
          ),
        ),
      );
      reports.push(...answers.map((answer) => answer.status));
    }
    checks.push({
      step: `120 charges reports 8 at a time: ${reports.filter((status) => status === 200).length} x 200`,
      status: reports.find((status) => status !== 200) ?? 200,
      ok: reports.every((status) => status === 200),
    });
    await call('DELETE endptjobs/{id}', 'DELETE', `/api/v0/endptjobs/${id}/`, key, {});
    const outbox = (await runManage(['outbox:list', '--to', email], env)) as {
      messages?: unknown[];
    };
    checks.push({
      step: 'manage outbox:list (through PgBouncer) has the code',
      status: 0,
      ok: (outbox.messages?.length ?? 0) > 0,
    });

    const load = await autocannon({
      url: `${api.url}/api/v0/endptjobs/`,
      connections: 64,
      duration: SECONDS,
      headers: { Authorization: `Bearer ${key}` },
    });
    const statuses = Object.entries(
      (load as unknown as { statusCodeStats?: Record<string, { count: number }> })
        .statusCodeStats ?? {},
    )
      .map(([status, stats]) => `${status}: ${stats.count}`)
      .join(', ');
    const lines = [
      `${execFileSync(pgbouncerBinary(), ['--version']).toString().split('\n')[0]}, as docker/compose.scale.yml configures it: ` +
        `pool_mode = ${shipped.pgbouncer.POOL_MODE}, default_pool_size = ${shipped.pgbouncer.DEFAULT_POOL_SIZE}, ` +
        `max_client_conn = ${shipped.pgbouncer.MAX_CLIENT_CONN}, ignore_startup_parameters = ${shipped.pgbouncer.IGNORE_STARTUP_PARAMETERS}; ` +
        `DATABASE_PREPARED_STATEMENTS=${env.DATABASE_PREPARED_STATEMENTS}`,
      ...checks.map((c) => `${c.ok ? 'ok  ' : 'FAIL'} ${c.step} (${c.status})`),
      `load: GET endptjobs, 64 connections, ${SECONDS} s: ${load.requests.total} requests (${statuses}), ` +
        `p50 ${load.latency.p50} ms, p99 ${load.latency.p99} ms, ${load.errors} errors`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    if (checks.some((c) => !c.ok) || load.non2xx > 0 || load.errors > 0) process.exitCode = 1;
    agent.destroy();
  } finally {
    await stopAll();
    bouncer.child.kill('SIGTERM');
    rmSync(bouncer.dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  log(String((error as Error).stack ?? error));
  process.exitCode = 1;
  void stopAll();
});
