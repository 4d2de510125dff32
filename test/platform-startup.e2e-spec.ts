import { spawn } from 'node:child_process';
import { createServer, Server } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { DIST, spawnApi } from '@test/support/api';
import { Client } from 'pg';
import { freePort } from '@test/support/own-redis';
import { TEMPORARY_DATABASE_PREFIX } from '@test/support/test-env';

interface Exited {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built api with `env` (stdout and stderr are pipes, not a terminal) until it exits. */
function runApiUntilExit(env: Record<string, string>): Promise<Exited> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`${DIST}/apps/api/src/main.js`], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', EMBEDDED: 'false', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Exactly one line on stderr, plain text: no stack frames, no colour codes. */
function theOneLine(result: Exited): string {
  expect(result.code).toBe(1);
  const lines = result.stderr.split('\n').filter((line) => line !== '');
  expect(lines).toHaveLength(1);
  expect(result.stderr).not.toContain('\u001b[');
  return lines[0];
}

/** Waits until some line of the process's output satisfies `found`; the test timeout bounds it. */
async function outputLine(output: string[], found: (line: string) => boolean): Promise<string> {
  for (;;) {
    const line = output
      .join('\n')
      .split('\n')
      .find((candidate) => found(candidate));
    if (line !== undefined) return line;
    await sleep(20);
  }
}

/** Start-up as a person meets it: every mistake is one line naming the setting to fix. */
describe('api start-up failures and logs', () => {
  it('names DATABASE_URL when PostgreSQL cannot be reached', async () => {
    const port = await freePort();
    const line = theOneLine(
      await runApiUntilExit({ DATABASE_URL: `postgres://postgres:secret@127.0.0.1:${port}/app` }),
    );
    expect(line).toBe(
      `Cannot reach PostgreSQL at 127.0.0.1:${port}/app (ECONNREFUSED): start it, or set DATABASE_URL`,
    );
  });

  it('names DATABASE_URL when PostgreSQL refuses the connection, without its password', async () => {
    const line = theOneLine(
      await runApiUntilExit({
        DATABASE_URL: `postgres://nobody:hunter2@${new URL(process.env.DATABASE_URL!).host}/app`,
      }),
    );
    expect(line).toMatch(
      /^PostgreSQL at [\w.]+:\d+\/app refused the connection: .*"nobody".*; check DATABASE_URL$/,
    );
    expect(line).not.toContain('hunter2');
  });

  it('names PORT when the port is already in use', async () => {
    const taken: Server = createServer();
    const port = await new Promise<number>((resolve) =>
      taken.listen(0, '127.0.0.1', () => resolve((taken.address() as { port: number }).port)),
    );
    try {
      const line = theOneLine(await runApiUntilExit({ PORT: String(port) }));
      expect(line).toBe(
        `Port ${port} is already in use on 127.0.0.1: stop the other process or set PORT to a free port`,
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('lists every bad setting on one line, each by name', async () => {
    const line = theOneLine(
      await runApiUntilExit({ PORT: 'eighty', LOG_LEVEL: 'loud', SESSION_TTL_SECONDS: '5' }),
    );
    expect(line).toMatch(/^Invalid configuration: /);
    expect(line).toContain("PORT must be an integer between 0 and 65535 (got 'eighty')");
    expect(line).toContain('LOG_LEVEL must be one of');
    expect(line).toContain('SESSION_TTL_SECONDS must be an integer between 60');
  });

  it('refuses a database name the driver would not decode, in one line, creating nothing', async () => {
    // Under the run's prefix: were it created after all, global teardown would drop it.
    const encoded = `${TEMPORARY_DATABASE_PREFIX}enc%2Fname`;
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${encoded}`;
    const line = theOneLine(await runApiUntilExit({ DATABASE_URL: url.toString() }));
    expect(line).toBe(
      `Invalid configuration: DATABASE_URL names the database '${encoded}', whose ` +
        `percent-encoded characters the PostgreSQL driver would not decode: write the name ` +
        `without '/', '?', '#', ':', '@', '&', '=', '+', '$', ',' or ';' (letters, digits and _ are safe)`,
    );
    const admin = new Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      const { rows } = await admin.query(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [
        `${TEMPORARY_DATABASE_PREFIX}enc%`,
      ]);
      expect(rows).toEqual([]);
    } finally {
      await admin.end();
    }
  });

  it('starts with Redis unreachable, warning once what will not work and naming REDIS_URL', async () => {
    const port = await freePort();
    const api = await spawnApi({
      REDIS_URL: `redis://127.0.0.1:${port}`,
      RUN_WORKER: 'false',
      EMBEDDED: 'false',
    });
    try {
      const warnings = api.output
        .join('')
        .split('\n')
        .filter((line) => line.startsWith('Warning: '));
      expect(warnings).toEqual([
        `Warning: Redis at 127.0.0.1:${port} is unreachable (ECONNREFUSED): 2FA codes and ` +
          'logins, rate-limited routes and code delivery answer 503 until it is reachable, and ' +
          '/health/ready reports it down; start Redis or set REDIS_URL',
      ]);
      expect((await fetch(`${api.url}/health/live`)).status).toBe(200);
    } finally {
      await api.stop();
    }
  });

  it('logs JSON when stdout is not a terminal, route mappings only at debug, and a line on SIGTERM', async () => {
    const quiet = await spawnApi({ LOG_LEVEL: 'info', RUN_WORKER: 'false' });
    const stopped = quiet.stop('SIGTERM');
    await outputLine(quiet.output, (line) => line.includes('SIGTERM received: shutting down'));
    expect(await stopped).toBe(0);
    const stdoutLines = quiet.output.filter((line) => line.startsWith('{'));
    for (const line of stdoutLines) expect(() => JSON.parse(line)).not.toThrow();
    expect(stdoutLines.some((line) => line.includes('Mapped {'))).toBe(false);
    expect(stdoutLines.some((line) => line.includes('InstanceLoader'))).toBe(false);
    const shutdown = JSON.parse(
      stdoutLines.find((line) => line.includes('SIGTERM received'))!,
    ) as Record<string, unknown>;
    expect(shutdown).toMatchObject({ level: 30, context: 'Shutdown' });

    const verbose = await spawnApi({ LOG_LEVEL: 'debug', RUN_WORKER: 'false' });
    try {
      const mapped = JSON.parse(
        await outputLine(verbose.output, (line) =>
          line.includes('Mapped {/api/v0/charges, GET} route'),
        ),
      ) as Record<string, unknown>;
      expect(mapped).toMatchObject({ level: 20, context: 'RouterExplorer' });
    } finally {
      await verbose.stop();
    }
  });

  it('logs readable lines, not JSON, when stdout is a terminal', async () => {
    // util-linux `script` gives the api a pseudo-terminal; killing it ends the api too.
    const child = spawn(
      'script',
      ['-qec', `exec ${process.execPath} ${DIST}/apps/api/src/main.js`, '/dev/null'],
      {
        env: {
          ...process.env,
          PORT: '0',
          HOST: '127.0.0.1',
          LOG_LEVEL: 'info',
          RUN_WORKER: 'false',
        },
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    let screen = '';
    child.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString()));
    const closed = new Promise((resolve) => child.on('close', resolve));
    const lineWith = async (text: string): Promise<string> => {
      while (!screen.includes(text)) await sleep(20);
      return screen.split('\n').find((line) => line.includes(text))!;
    };
    try {
      const started = await lineWith('Nest application successfully started');
      // e.g. "[12:00:00.123] INFO: [NestApplication] Nest application successfully started"
      expect(started).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] .*INFO.*\[NestApplication\] Nest/);
      expect(started.trim().startsWith('{')).toBe(false);
      // Where it listens, as a sentence with the address to open, not a JSON object.
      const listening = await lineWith('API listening on ');
      expect(listening.trim()).toMatch(
        /^API listening on http:\/\/127\.0\.0\.1:\d+ \(no delivery worker \(RUN_WORKER=false\), metrics on 127\.0\.0\.1:\d+\)$/,
      );
      const port = /:(\d+) /.exec(listening)![1];
      await fetch(`http://127.0.0.1:${port}/api/v0/users/current/?secret=x`, {
        headers: { Authorization: 'Bearer not-a-key', Cookie: 'gm_session=x' },
      });
      // A request is one short line: method, path, status, time; no headers, no JSON.
      // Without the terminal's colour codes (ESC [ n m).
      const request = (await lineWith('GET /api/v0/users/current/ 404'))
        .split(String.fromCharCode(27))
        .map((part) => part.replace(/^\[\d+m/, ''))
        .join('');
      expect(request).toMatch(/INFO.*GET \/api\/v0\/users\/current\/ 404 \d+ ms\s*$/);
      expect(request).not.toMatch(/[{}]|headers|secret=|not-a-key|gm_session/);
    } finally {
      child.kill('SIGTERM');
      await closed;
    }
  });
});
