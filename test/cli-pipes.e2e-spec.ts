import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_MAIN, runCli, tempConfigHome } from '@test/support/cli';

/** Runs the CLI with a stdout whose reader is already gone, as `gpumkt ... | head -1` ends. */
function runIntoClosedPipe(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_MAIN, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Closed before the client writes anything: its first write fails with EPIPE.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/**
 * The CLI under a pseudo-terminal (util-linux `script`); `answer` is typed once `prompt` has
 * appeared on the terminal, as a person would.
 */
function answerInTerminal(
  args: string[],
  env: Record<string, string>,
  prompt: string,
  answer: string,
): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, CLI_MAIN, ...args].join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    let typed = false;
    child.stdout.on('data', (chunk: Buffer) => {
      screen += chunk.toString();
      if (!typed && screen.includes(prompt)) {
        typed = true;
        child.stdin.write(`${answer}\r`);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, screen }));
  });
}

describe('gpumkt in pipes and terminals', () => {
  let home: string;
  let env: Record<string, string>;

  beforeEach(() => {
    home = tempConfigHome();
    env = { XDG_CONFIG_HOME: home };
  });

  afterEach(() => rmSync(home, { recursive: true, force: true }));

  const savedKey = () => readFileSync(join(home, 'gpumkt', 'api_key'), 'utf8');

  it('ends quietly when the reader of its output has gone (`gpumkt tfa --help | head -1`)', async () => {
    for (const args of [['tfa', '--help'], ['--help'], ['show', 'invoices', '--help']]) {
      const result = await runIntoClosedPipe(args);
      expect({ args, ...result }).toEqual({ args, code: 0, stderr: '' });
    }
  });

  it('reads the key from standard input with `set api-key -`, and never prints it', async () => {
    const key = 'piped-key-0123456789';
    const result = await runCli(['set', 'api-key', '-'], { env, stdin: `${key}\n` });
    expect(result.code).toBe(0);
    expect(savedKey()).toBe(key);
    expect(result.stdout + result.stderr).not.toContain(key);
  });

  it('reads the key from a pipe with no argument at all', async () => {
    const result = await runCli(['set', 'api-key'], { env, stdin: 'from-a-pipe\n' });
    expect(result.code).toBe(0);
    expect(savedKey()).toBe('from-a-pipe');
  });

  it('refuses an empty standard input (exit 2), saving nothing', async () => {
    const result = await runCli(['set', 'api-key'], { env, stdin: '' });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: no API key on standard input: pass it as an argument, pipe it in, or run on a terminal to be asked\n',
    );
  });

  it('asks on a terminal without echoing what is typed', async () => {
    const key = 'typed-at-the-terminal-42';
    const result = await answerInTerminal(['set', 'api-key'], env, 'API key (input hidden): ', key);
    expect(result.code).toBe(0);
    expect(savedKey()).toBe(key);
    expect(result.screen).toContain('Your API key has been saved in');
    expect(result.screen).not.toContain(key);
  });
});
