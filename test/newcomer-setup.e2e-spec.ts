import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DIST, ROOT } from '@test/support/api';
import { CLI_MAIN, runCommandLine } from '@test/support/cli';
import { waitFor } from '@test/support/wait';

/** Whether a process is still there (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const manage = `${process.execPath} ${join(DIST, 'apps/manage/src/main.js')}`;

/** A command line run in the checkout, as a newcomer types it there (npm offline). */
const inCheckout = (line: string) =>
  runCommandLine(`cd '${ROOT}' && ${line}`, { env: { npm_config_offline: 'true' } });

/**
 * The set-up the README walks a newcomer through, as processes: the npm scripts and the
 * entry points behave as the README says they do.
 */
describe('a newcomer’s set-up', () => {
  it('stops the api when the `npm start` process is stopped (nothing left holding the port)', async () => {
    // --ignore-scripts skips the prestart build (the suite built already); start is as is.
    const npm = spawn('npm', ['start', '--ignore-scripts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        npm_config_offline: 'true',
        PORT: '0',
        HOST: '127.0.0.1',
        RUN_WORKER: 'false',
      },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const exited = new Promise((resolve) => npm.on('exit', resolve));
    let apiPid = 0;
    try {
      apiPid = await new Promise<number>((resolve, reject) => {
        npm.once('exit', (code) => reject(new Error(`npm start exited ${code}`)));
        createInterface({ input: npm.stdout! }).on('line', (line) => {
          if (!line.includes('"api listening"')) return;
          resolve((JSON.parse(line) as { pid: number }).pid);
        });
      });
      expect(apiPid).not.toBe(npm.pid);
      npm.kill('SIGTERM');
      await exited;
      await waitFor(
        () => alive(apiPid),
        (stillThere) => !stillThere,
        {
          what: `the api (pid ${apiPid}) to stop with npm`,
        },
      );
    } finally {
      if (npm.exitCode === null) npm.kill('SIGKILL');
      if (apiPid && alive(apiPid)) process.kill(apiPid, 'SIGKILL');
    }
  });

  it('gives `npm run -s manage` exactly one JSON document on stdout, and npm its banner without -s', async () => {
    const quiet = await inCheckout('npm run -s manage -- outbox:list --limit 1');
    expect(quiet.code).toBe(0);
    expect(JSON.parse(quiet.stdout)).toEqual({ messages: expect.any(Array) });
    const banner = await inCheckout('npm run manage -- outbox:list --limit 1');
    expect(banner.stdout).toMatch(/^\n?> gpu-marketplace@[\d.]+ manage\n/);
  });

  it('prints `manage --help` without the warnings meant for commands that act', async () => {
    const development = { env: { NODE_ENV: 'development' } };
    for (const args of ['--help', 'seed:demo --help', 'help user:create']) {
      const help = await runCommandLine(`${manage} ${args}`, development);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^Usage: manage/);
      expect(help.stderr).toBe('');
    }
    // A command that acts still says that the secrets are the development ones.
    const acting = await runCommandLine(`${manage} outbox:list --limit 1`, development);
    expect(acting.stderr).toContain('Using built-in DEVELOPMENT secrets');
  });

  it('builds gpumkt as an executable, so the command `npm link` makes survives a rebuild', () => {
    expect(statSync(CLI_MAIN).mode & 0o111).toBe(0o111);
  });
});
