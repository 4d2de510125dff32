import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

/** The environment of a client run against `apiUrl` with `key`, in a config home of its own. */
export function cliEnvFor(apiUrl: string, key: string): Record<string, string> {
  return { XDG_CONFIG_HOME: tempConfigHome(), GPUMKT_URL: apiUrl, GPUMKT_API_KEY: key };
}

/** The result of a run that must have succeeded; else the error names its exit and stderr. */
export function succeeded(result: CliResult): CliResult {
  if (result.code !== 0) throw new Error(`exit ${result.code}: ${result.stderr}`);
  return result;
}

/** The test process's environment without anything that would steer the client. */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('GPUMKT_') && name !== 'XDG_CONFIG_HOME') {
      env[name] = value;
    }
  }
  return { ...env, ...extra };
}

function collect(command: string, args: string[], options: CliOptions): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: cleanEnv(options.env),
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

/** Runs the built `gpumkt` as a child process, the way a user's shell would. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return collect(process.execPath, [CLI_MAIN, ...args], options);
}

/**
 * Runs a command line exactly as a user would paste it into a shell (`sh -c`), with a
 * `gpumkt` on the PATH that starts the built client: for the follow-up commands the
 * client prints, which must work verbatim.
 */
export async function runCommandLine(line: string, options: CliOptions = {}): Promise<CliResult> {
  const bin = mkdtempSync(join(tmpdir(), 'gpumkt-bin-'));
  try {
    const launcher = join(bin, 'gpumkt');
    writeFileSync(
      launcher,
      `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(CLI_MAIN)} "$@"\n`,
    );
    chmodSync(launcher, 0o755);
    const path = `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`;
    return await collect('sh', ['-c', line], { ...options, env: { ...options.env, PATH: path } });
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
}

const shellQuote = (arg: string): string => `'${arg.replace(/'/g, `'\\''`)}'`;

/**
 * Runs the CLI under a pseudo-terminal (util-linux `script`, part of every Debian system),
 * for the branches that depend on a terminal. Everything the terminal shows arrives as
 * `stdout` of the result, with CRLF line ends. With `stdoutFile`, the client's stdout is
 * redirected to that file, so only its stderr is a terminal.
 */
export function runCliInTerminal(
  args: string[],
  options: CliOptions & { stdoutFile?: string } = {},
): Promise<CliResult> {
  const command = [process.execPath, CLI_MAIN, ...args].map(shellQuote).join(' ');
  const redirected = options.stdoutFile
    ? `${command} > ${shellQuote(options.stdoutFile)}`
    : command;
  return collect('script', ['-qec', redirected, '/dev/null'], options);
}

/** Stdout of a successful --raw run: exactly one JSON document and nothing else. */
export function rawDocument<T = Record<string, unknown>>(result: CliResult): T {
  if (result.code !== 0) throw new Error(`exit ${result.code}: ${result.stderr}`);
  // JSON.parse refuses anything but one document (surrounding whitespace aside).
  return JSON.parse(result.stdout) as T;
}

export interface ExplainedRequest {
  method: string;
  /** The full URL, query included, as the client prints it. */
  url: string;
  /** The exact JSON body; undefined when the request must carry none. */
  body?: string;
  /** Decoded query parameters, `name = value` as printed. */
  query?: string[];
}

/**
 * Checks the --explain lines of one request on stderr: method and URL, each query
 * parameter, the body (or its absence), and the key shown only as <redacted>.
 */
export function expectExplained(stderr: string, request: ExplainedRequest, key: string): void {
  const lines = stderr.split('\n');
  const start = lines.indexOf(`[explain] ${request.method} ${request.url}`);
  if (start === -1) {
    throw new Error(`no "[explain] ${request.method} ${request.url}" line in:\n${stderr}`);
  }
  const block: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith('[explain]   ')) break;
    block.push(line.slice('[explain]   '.length));
  }
  const expected = [
    ...(request.query ?? []).map((entry) => `query ${entry}`),
    ...(request.body === undefined ? [] : [`body ${request.body}`]),
  ];
  const shown = block.filter((line) => !line.startsWith('Authorization: '));
  if (JSON.stringify(shown) !== JSON.stringify(expected)) {
    throw new Error(
      `explained ${JSON.stringify(shown)}, expected ${JSON.stringify(expected)}:\n${stderr}`,
    );
  }
  if (!block.some((line) => line.startsWith('Authorization: Bearer <redacted> (key from '))) {
    throw new Error(`no redacted Authorization line in:\n${stderr}`);
  }
  if (stderr.includes(key)) throw new Error(`the key appears in --explain output:\n${stderr}`);
}

/** No JavaScript stack frame in the output: user mistakes get one line, not a trace. */
export function expectNoStackTrace(result: CliResult): void {
  const text = `${result.stdout}\n${result.stderr}`;
  if (/\n\s+at .+[(:]\d+/.test(text) || /\b(TypeError|ReferenceError|SyntaxError):/.test(text)) {
    throw new Error(`a stack trace was printed:\n${text}`);
  }
}
