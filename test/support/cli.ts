import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIST } from './api';

export const CLI_MAIN = join(DIST, 'apps/cli/src/main.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Extra environment; GPUMKT_* and XDG_CONFIG_HOME are otherwise cleared. */
  env?: Record<string, string>;
  stdin?: string;
}

/** A throwaway config home, so each test owns its key files. */
export function tempConfigHome(): string {
  return mkdtempSync(join(tmpdir(), 'gpumkt-cli-'));
}

/** Runs the built `gpumkt` as a child process, the way a user's shell would. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('GPUMKT_') && name !== 'XDG_CONFIG_HOME') {
      env[name] = value;
    }
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_MAIN, ...args], {
      env: { ...env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}

/** Runs the CLI under a pseudo-terminal (util-linux `script`), for the TTY branches. */
export function runCliInTerminal(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const quoted = [process.execPath, CLI_MAIN, ...args].map(
    (arg) => `'${arg.replace(/'/g, `'\\''`)}'`,
  );
  return new Promise((resolve, reject) => {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) {
      if (value !== undefined && !name.startsWith('GPUMKT_') && name !== 'XDG_CONFIG_HOME') {
        env[name] = value;
      }
    }
    const child = spawn('script', ['-qec', quoted.join(' '), '/dev/null'], {
      env: { ...env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}
