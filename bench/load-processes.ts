import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * Child processes of the load benchmark: the api, the baseline server and `manage`.
 * Entry points are found relative to this compiled file (<dist>/bench/), so the same
 * script runs from dist/ or from a private build folder.
 */
export const DIST = join(__dirname, '..');

export function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** Refuses anything but a loopback host: the benchmark generates load and drops a database. */
export function assertLoopback(name: string, url: string): void {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (!['127.0.0.1', 'localhost', '::1'].includes(host))
    throw new Error(`${name} must point at a loopback address, got ${host}`);
}

export interface Server {
  name: string;
  child: ChildProcess;
  pid: number;
  url: string;
  /** stderr lines kept for the failure message (bounded). */
  output: string[];
  stop(): Promise<void>;
}

const running = new Set<Server>();

function keepTail(output: string[], line: string): void {
  output.push(line);
  if (output.length > 200) output.shift();
}

/**
 * Starts `node <script>` and resolves once it prints `{"msg": "<ready>", "port": N}` on
 * stdout (the line the api prints for scripts; the baseline prints the same shape).
 */
export function startServer(
  name: string,
  script: string,
  env: NodeJS.ProcessEnv,
  ready: string,
  timeoutMs = 90_000,
): Promise<Server> {
  const child = spawn(process.execPath, [script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => keepTail(output, chunk.toString().trimEnd()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start within ${timeoutMs} ms:\n${output.join('\n')}`));
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(`${name} exited (${code ?? signal}) before listening:\n${output.join('\n')}`),
      );
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let parsed: { msg?: string; port?: number } | undefined;
      try {
        parsed = JSON.parse(line) as { msg?: string; port?: number };
      } catch {
        keepTail(output, line);
        return;
      }
      if (parsed?.msg !== ready || !parsed.port) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      const server: Server = {
        name,
        child,
        pid: child.pid!,
        url: `http://127.0.0.1:${parsed.port}`,
        output,
        stop: () => stopChild(server),
      };
      running.add(server);
      resolve(server);
    });
  });
}

/** SIGTERM, then SIGKILL after 15 s: a stuck shutdown must not hang the benchmark. */
function stopChild(server: Server): Promise<void> {
  running.delete(server);
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Stops every server still running (on the way out, success or not). */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((server) => server.stop()));
}

/** Resident set size of a process in MiB, from /proc/<pid>/status (Linux). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!match) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]) / 1024;
}

/** `manage <args>`: parses its one JSON document; a non-zero exit is an error with its stderr. */
export function runManage(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(DIST, 'apps/manage/src/main.js'), ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`manage ${args[0]} exited with ${code}: ${stderr}`));
      try {
        resolve(JSON.parse(stdout) as Record<string, unknown>);
      } catch {
        reject(new Error(`manage ${args[0]} printed no JSON: ${stdout.slice(0, 500)}`));
      }
    });
  });
}
