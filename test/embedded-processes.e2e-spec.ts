import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIST, runManage, spawnApi, SpawnedProcess } from '@test/support/api';

/** Stdout of a successful manage command, parsed; the test fails with its stderr otherwise. */
function succeeded<T>(result: { code: number | null; json: unknown; stderr: string }): T {
  if (result.code !== 0) throw new Error(`manage exited ${result.code}: ${result.stderr}`);
  return result.json as T;
}

/** A process that is alive until killed, to stand for another holder of a directory. */
function bystander(): { pid: number; kill(): Promise<void> } {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => undefined, 1000)'], {
    stdio: 'ignore',
  });
  return {
    pid: child.pid!,
    kill: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

/**
 * The embedded mode's data directory is one process's database (PGlite). These tests run
 * the README's quick start in the embedded mode, as separate OS processes: the api hosts
 * the database and `npm run manage` (with nothing telling it the mode, as written in the
 * README) uses it through the api's socket; a second opener is refused with one line; with
 * no api, manage opens the directory itself, and a holder that died is replaced.
 */
describe('embedded mode: one data directory, several processes', () => {
  let parent: string;
  let dataDir: string;
  let api: SpawnedProcess | undefined;
  /** What a newcomer's shell has: no service URLs, no EMBEDDED (manage chooses by itself). */
  let plainShell: Record<string, string>;

  beforeAll(async () => {
    parent = mkdtempSync(join(tmpdir(), 'gpumarket-embedded-procs-'));
    dataDir = join(parent, 'pglite');
    plainShell = { EMBEDDED: '', DATABASE_URL: '', REDIS_URL: '', EMBEDDED_DATA_DIR: dataDir };
    api = await spawnApi({ ...plainShell, EMBEDDED: 'true' }, 100_000);
  }, 150_000);

  afterAll(async () => {
    if (api && api.child.exitCode === null && api.child.signalCode === null)
      await api.stop('SIGKILL');
    rmSync(parent, { recursive: true, force: true });
  });

  it('prints the real data directory in its banner', () => {
    expect(api!.output.join('\n')).toContain(
      `EMBEDDED MODE: PostgreSQL is PGlite, its data in ${dataDir}`,
    );
  });

  it('gives a key made by a plain `manage user:create` that the running api accepts', async () => {
    const first = succeeded<{ id: number; api_key: string }>(
      await runManage(['user:create', '--email', 'me@example.com', '--verified'], plainShell),
    );
    const second = succeeded<{ id: number; api_key: string }>(
      await runManage(['user:create', '--email', 'you@example.com', '--verified'], plainShell),
    );
    for (const [created, email] of [
      [first, 'me@example.com'],
      [second, 'you@example.com'],
    ] as const) {
      const me = await fetch(`${api!.url}/api/v0/users/current/`, {
        headers: { Authorization: `Bearer ${created.api_key}` },
      });
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ id: created.id, email });
    }
    // The same email again is refused cleanly, not half-written.
    const again = await runManage(['user:create', '--email', 'me@example.com'], plainShell);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stderr.trim().split('\n').pop()!)).toMatchObject({
      error: expect.any(String),
    });
  });

  it('reads a development code with `manage outbox:list` while the api runs', async () => {
    const { api_key } = succeeded<{ api_key: string }>(
      await runManage(['user:create', '--email', 'codes@example.com', '--verified'], plainShell),
    );
    const started = await fetch(`${api!.url}/api/v0/tfa/authorize-new-method/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${api_key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ tfa_method: 'email' }),
    });
    expect(started.status).toBe(200);
    // Delivery is queued in the api's process: wait until the outbox has the message.
    let messages: Array<{ to: string; body: string }> = [];
    while (messages.length === 0) {
      messages = succeeded<{ messages: typeof messages }>(
        await runManage(['outbox:list', '--to', 'codes@example.com'], plainShell),
      ).messages;
    }
    expect(messages[0].body).toMatch(/\b\d{6}\b/);
  });

  it('refuses a second api on the same directory with one line naming EMBEDDED_DATA_DIR', async () => {
    const second = spawn(process.execPath, [join(DIST, 'apps/api/src/main.js')], {
      env: { ...process.env, ...plainShell, EMBEDDED: 'true', PORT: '0', HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    second.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => second.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      `The embedded database in ${dataDir} is already served by the api running as pid ` +
        `${api!.child.pid}: stop it, or give this one another EMBEDDED_DATA_DIR`,
    ]);
  });

  it('releases the directory on SIGTERM; manage then opens it itself and finds the same data', async () => {
    expect(await api!.stop('SIGTERM')).toBe(0);
    expect(existsSync(`${dataDir}.lock`)).toBe(false);
    // No api any more: nothing to follow, so the mode is chosen as for the api (EMBEDDED).
    const embedded = { ...plainShell, EMBEDDED: 'true' };
    const key = succeeded<{ api_key: string }>(
      await runManage(['user:create', '--email', 'later@example.com'], embedded),
    );
    expect(key.api_key).toEqual(expect.any(String));
    const duplicate = await runManage(['user:create', '--email', 'me@example.com'], embedded);
    expect(duplicate.code).toBe(1);
    expect(existsSync(`${dataDir}.lock`)).toBe(false);
  });

  it('refuses manage while another live process holds the directory, with one line', async () => {
    const other = bystander();
    try {
      writeFileSync(
        `${dataDir}.lock`,
        JSON.stringify({ pid: other.pid, role: 'manage', command: 'manage seed:demo' }),
      );
      const refused = await runManage(['outbox:list'], { ...plainShell, EMBEDDED: 'true' });
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim().split('\n')).toEqual([
        JSON.stringify({
          error: 'startup_error',
          msg:
            `The embedded database in ${dataDir} is in use by pid ${other.pid} (manage seed:demo); ` +
            `wait for it to finish, or set EMBEDDED_DATA_DIR to another directory ` +
            `(if that process is gone, delete ${dataDir}.lock)`,
        }),
      ]);
      // The holder's lock is left as it was.
      expect(JSON.parse(readFileSync(`${dataDir}.lock`, 'utf8')).pid).toBe(other.pid);
    } finally {
      await other.kill();
    }
    // Its holder is gone now: the stale lock is replaced, and released after the command.
    const listed = succeeded<{ messages: unknown[] }>(
      await runManage(['outbox:list'], { ...plainShell, EMBEDDED: 'true' }),
    );
    expect(Array.isArray(listed.messages)).toBe(true);
    expect(existsSync(`${dataDir}.lock`)).toBe(false);
  });
});
