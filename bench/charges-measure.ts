import { Agent, request } from 'node:http';

export interface Measurement {
  p50: number;
  p99: number;
  rps: number;
  requests: number;
}

/** Raw latencies (ms) of one or more timed loops, and the seconds they ran. */
export interface Samples {
  latencies: number[];
  seconds: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Pools the latencies of several slices: rps is requests over the slices' summed time. */
export function summarize(slices: Samples[]): Measurement {
  const latencies = slices.flatMap((slice) => slice.latencies).sort((a, b) => a - b);
  const seconds = slices.reduce((sum, slice) => sum + slice.seconds, 0);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    rps: latencies.length / seconds,
    requests: latencies.length,
  };
}

/**
 * Runs `work` from `concurrency` loops for `seconds` (at least `minRequests` in all, at
 * most 4x the time), after a short warm-up. Latencies in milliseconds.
 */
export async function sampleLoop(
  work: () => Promise<unknown>,
  concurrency: number,
  seconds: number,
  minRequests = 20,
): Promise<Samples> {
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
  return { latencies, seconds: elapsed() };
}

export async function measureLoop(
  work: () => Promise<unknown>,
  concurrency: number,
  seconds: number,
): Promise<Measurement> {
  return summarize([await sampleLoop(work, concurrency, seconds)]);
}

/**
 * Measures pieces of work against each other in alternating slices (A B C D D C B A ...),
 * `seconds` in all for each, so a change in the machine's background load during the
 * measurement weighs on all sides alike and their ratios stay meaningful.
 */
export async function measureSides(
  works: ReadonlyArray<() => Promise<unknown>>,
  concurrency: number,
  seconds: number,
  slices = 4,
): Promise<Measurement[]> {
  const samples: Samples[][] = works.map(() => []);
  const slice = seconds / slices;
  const forward = works.map((_work, index) => index);
  for (let i = 0; i < slices; i += 1) {
    for (const index of i % 2 === 0 ? forward : [...forward].reverse()) {
      samples[index].push(await sampleLoop(works[index], concurrency, slice, 10));
    }
  }
  return samples.map(summarize);
}

/**
 * A keep-alive GET that reads the whole body and resolves with it, unparsed: the timed
 * loops stop the clock at the last byte, so the client's JSON.parse is not counted as the
 * endpoint's time. Fails on any non-200 so a benchmark never times error answers, and after
 * 30 s so a stuck server cannot hold a loop. (autocannon records whole milliseconds, too
 * coarse here.)
 */
export function httpFetcher(
  agent: Agent,
  headers: Record<string, string>,
): (url: string) => Promise<Buffer> {
  return (url) =>
    new Promise((resolve, reject) => {
      const req = request(url, { agent, headers, timeout: 30_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          if (res.statusCode !== 200)
            return reject(new Error(`HTTP ${res.statusCode}: ${body.toString('utf8')}`));
          resolve(body);
        });
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`GET ${url}: no answer within 30 s`)));
      req.on('error', reject);
      req.end();
    });
}

/** httpFetcher with the body parsed as JSON, for the steps that read it. */
export function httpGetter(
  agent: Agent,
  headers: Record<string, string>,
): (url: string) => Promise<Record<string, unknown>> {
  const fetchBody = httpFetcher(agent, headers);
  return async (url) =>
    JSON.parse((await fetchBody(url)).toString('utf8')) as Record<string, unknown>;
}

/**
 * Fails unless two answers to the same request are the same bytes: two sides timed on
 * different bodies would be compared on different work. The message shows where they part.
 */
export function assertSameBytes(what: string, expected: Buffer, actual: Buffer): void {
  if (expected.equals(actual)) return;
  let at = 0;
  while (at < expected.length && at < actual.length && expected[at] === actual[at]) at += 1;
  const around = (body: Buffer) => body.subarray(Math.max(0, at - 60), at + 60).toString('utf8');
  throw new Error(
    `${what}: bodies differ at byte ${at} (lengths ${expected.length} and ${actual.length}):\n` +
      `  expected ...${around(expected)}...\n  actual   ...${around(actual)}...`,
  );
}
