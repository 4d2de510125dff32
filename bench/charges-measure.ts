import { Agent, request } from 'node:http';

export interface Measurement {
  p50: number;
  p99: number;
  rps: number;
  requests: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * Runs `work` from `concurrency` loops for `seconds` (at least `minRequests` in all, at
 * most 4x the time), after a short warm-up. Latencies in milliseconds.
 */
export async function measureLoop(
  work: () => Promise<unknown>,
  concurrency: number,
  seconds: number,
  minRequests = 20,
): Promise<Measurement> {
  for (let i = 0; i < 3; i += 1) await work();
  const latencies: number[] = [];
  const started = process.hrtime.bigint();
  const elapsed = () => Number(process.hrtime.bigint() - started) / 1e9;
  const loops = Array.from({ length: concurrency }, async () => {
    while ((elapsed() < seconds || latencies.length < minRequests) && elapsed() < seconds * 4) {
      const at = process.hrtime.bigint();
      await work();
      latencies.push(Number(process.hrtime.bigint() - at) / 1e6);
    }
  });
  await Promise.all(loops);
  const total = elapsed();
  latencies.sort((a, b) => a - b);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    rps: latencies.length / total,
    requests: latencies.length,
  };
}

/**
 * A keep-alive GET that reads the whole body; fails on any non-200 so a benchmark never
 * times error answers. (autocannon records whole milliseconds, too coarse here.)
 */
export function httpGetter(
  agent: Agent,
  headers: Record<string, string>,
): (url: string) => Promise<Record<string, unknown>> {
  return (url) =>
    new Promise((resolve, reject) => {
      const req = request(url, { agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) return reject(new Error(`HTTP ${res.statusCode}: ${body}`));
          resolve(JSON.parse(body) as Record<string, unknown>);
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
}
