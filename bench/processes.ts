import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * Child processes of the benchmarks (the api, the baseline server and `manage`) and the
 * machine conditions they report. Entry points are found relative to this compiled file
 * (<dist>/bench/), so the same script runs from dist/ or from a private build folder.
 */
export const DIST = join(__dirname, '..');

/**
 * The environment of an api (and of `manage`) under benchmark: the product in development
 * mode on the given services, rate limits off, warnings only, an ephemeral loopback port,
 * no in-process worker unless `extra` asks for one. The same for the api and `manage`, so
 * both derive the same key fingerprints.
 */
export function benchServerEnv(
  databaseUrl: string,
  redisUrl: string,
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'development',
    EMBEDDED: 'false',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'warn',
    RUN_WORKER: 'false',
    PORT: '0',
    HOST: '127.0.0.1',
    METRICS_PORT: '0',
    ...extra,
  };
}

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
  /** Where its GET /metrics is served (the api's metrics listener), when it has one. */
  metricsUrl: string | null;
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
  // Registered before it listens, so a failure or the deadline during startup still stops it.
  const server: Server = {
    name,
    child,
    pid: child.pid!,
    url: '',
    metricsUrl: null,
    output,
    stop: () => stopChild(server),
  };
  running.add(server);
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
      let parsed: { msg?: string; port?: number; metrics_port?: number } | undefined;
      try {
        parsed = JSON.parse(line) as { msg?: string; port?: number; metrics_port?: number };
      } catch {
        keepTail(output, line);
        return;
      }
      if (parsed?.msg !== ready || !parsed.port) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      server.url = `http://127.0.0.1:${parsed.port}`;
      if (parsed.metrics_port) server.metricsUrl = `http://127.0.0.1:${parsed.metrics_port}`;
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

/**
 * `manage <args>`: parses its one JSON document; a non-zero exit is an error with its
 * stderr. Killed after `timeoutMs`, so a stuck command cannot hold the benchmark forever.
 */
export function runManage(
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 120_000,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(DIST, 'apps/manage/src/main.js'), ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0)
        return reject(new Error(`manage ${args[0]} exited with ${code ?? signal}: ${stderr}`));
      try {
        resolve(JSON.parse(stdout) as Record<string, unknown>);
      } catch {
        reject(new Error(`manage ${args[0]} printed no JSON: ${stdout.slice(0, 500)}`));
      }
    });
  });
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (user + system, ms) a process has used so far, from /proc/<pid>/stat (Linux). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** The 1, 5 and 15 minute load averages, for the conditions line of a report. */
export function loadAverage(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ');
}

export function machine(): string {
  const cpu = cpus();
  return `${cpu.length} cores (${cpu[0]?.model.trim()}), Node ${process.version}`;
}

/**
 * A last-resort bound on a whole run: after `minutes` the servers are stopped and the
 * process exits 3, whatever step it is in.
 */
export function deadline(minutes: number): NodeJS.Timeout {
  const timer = setTimeout(() => {
    log(`deadline of ${minutes} min reached: stopping`);
    void stopAll().finally(() => process.exit(3));
  }, minutes * 60_000);
  timer.unref();
  return timer;
}
