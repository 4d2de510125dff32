import autocannon from 'autocannon';
import { cpuMs, rssMiB } from './processes';

/** One autocannon run with sub-millisecond latencies and the server's RSS sampled alongside. */

export interface LoadTarget {
  url: string;
  method?: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: string;
  /** Called for every request: rotates users, bodies or ids. */
  setupRequest?: (request: autocannon.Request) => autocannon.Request;
  /** Upper bound on requests of the run (a pool of single-use credentials). */
  maxRequests?: number;
}

export interface LoadResult {
  connections: number;
  seconds: number;
  requests: number;
  ok: number;
  p50: number;
  p99: number;
  rps: number;
  non2xx: number;
  socketErrors: number;
  /** Count per HTTP status, for explaining errors. */
  statuses: Record<string, number>;
  /** A few error bodies or socket error messages (first seen). */
  samples: string[];
  rssEnd: number;
  rssPeak: number;
  /** CPU time (user + system, ms) the serving process used during the run. */
  cpuMs: number;
  /** The 2xx latencies (ms), sorted, so runs in slices can be pooled (mergeRuns). */
  latencies: Float64Array;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * Runs `target` at `connections` for `seconds` and samples `pid`'s RSS every 250 ms.
 * p50/p99 are over 2xx answers (as autocannon's own histogram, but unrounded: autocannon
 * keeps whole milliseconds, too coarse for sub-millisecond routes).
 */
export function measure(
  target: LoadTarget,
  connections: number,
  seconds: number,
  pid: number,
): Promise<LoadResult> {
  let latencies = new Float64Array(1 << 14);
  let count = 0;
  const statuses: Record<string, number> = {};
  const samples: string[] = [];
  let rssPeak = rssMiB(pid);
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, rssMiB(pid));
  }, 250);
  const started = process.hrtime.bigint();
  const cpuStart = cpuMs(pid);
  const options: autocannon.Options = {
    url: target.url,
    connections,
    pipelining: 1,
    duration: seconds,
    timeout: 30,
    method: target.method ?? 'GET',
    headers: target.headers,
    body: target.body,
    ...(target.maxRequests ? { maxOverallRequests: target.maxRequests } : {}),
    ...(target.setupRequest
      ? {
          requests: [
            {
              method: target.method ?? 'GET',
              setupRequest: target.setupRequest,
              onResponse: (status: number, body: string) => {
                if ((status < 200 || status > 299) && samples.length < 3)
                  samples.push(`${status} ${body.slice(0, 200)}`);
              },
            },
          ],
        }
      : {}),
  };
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => {
      clearInterval(sampler);
      if (error) return reject(error);
      const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
      const rssEnd = rssMiB(pid);
      const cpuUsed = cpuMs(pid) - cpuStart;
      const sorted = latencies.slice(0, count).sort();
      const requests = Object.values(statuses).reduce((a, b) => a + b, 0);
      resolve({
        connections,
        seconds: elapsed,
        requests,
        ok: count,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        rps: requests / elapsed,
        non2xx: result.non2xx,
        socketErrors: result.errors,
        statuses,
        samples,
        rssEnd,
        rssPeak: Math.max(rssPeak, rssEnd),
        cpuMs: cpuUsed,
        latencies: sorted,
      });
    });
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      if (statusCode < 200 || statusCode > 299) return;
      if (count === latencies.length) {
        const grown = new Float64Array(latencies.length * 2);
        grown.set(latencies);
        latencies = grown;
      }
      latencies[count] = responseTime;
      count += 1;
    });
    instance.on('reqError', (error: Error) => {
      if (samples.length < 3) samples.push(`socket: ${error.message}`);
    });
  });
}

/** Pools runs of one target made in slices: percentiles over all latencies, rates over all time. */
export function mergeRuns(runs: LoadResult[]): LoadResult {
  const count = runs.reduce((sum, run) => sum + run.latencies.length, 0);
  const latencies = new Float64Array(count);
  let at = 0;
  for (const run of runs) {
    latencies.set(run.latencies, at);
    at += run.latencies.length;
  }
  latencies.sort();
  const statuses: Record<string, number> = {};
  for (const run of runs)
    for (const [status, n] of Object.entries(run.statuses))
      statuses[status] = (statuses[status] ?? 0) + n;
  const sum = (pick: (run: LoadResult) => number) =>
    runs.reduce((total, run) => total + pick(run), 0);
  const seconds = sum((run) => run.seconds);
  const requests = sum((run) => run.requests);
  return {
    connections: runs[0].connections,
    seconds,
    requests,
    ok: count,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    rps: requests / seconds,
    non2xx: sum((run) => run.non2xx),
    socketErrors: sum((run) => run.socketErrors),
    statuses,
    samples: runs.flatMap((run) => run.samples).slice(0, 3),
    rssEnd: runs[runs.length - 1].rssEnd,
    rssPeak: Math.max(...runs.map((run) => run.rssPeak)),
    cpuMs: sum((run) => run.cpuMs),
    latencies,
  };
}
