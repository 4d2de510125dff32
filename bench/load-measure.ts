import autocannon from 'autocannon';
import { rssMiB } from './load-processes';

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
      const sorted = latencies.subarray(0, count).sort();
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
        rssEnd: rssMiB(pid),
        rssPeak,
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
