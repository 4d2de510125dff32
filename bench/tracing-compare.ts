import { readFile } from 'node:fs/promises';
import { createServer, Server as HttpServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { writeMarkdown } from './docs';
import { LoadResult, LoadTarget, measure, mergeRuns } from './load-measure';
import { log, Server } from './processes';

/**
 * The tracing part of `npm run bench`: the same api build with tracing off and on (every
 * span exported, OTLP/HTTP protobuf to a local receiver), and optionally the build of
 * another commit (LOAD_BEFORE_DIST, "today"), measured against each other in alternating
 * slices (A B C C B A ...), so background drift weighs on all alike. Written to the
 * `## Tracing` section of docs/performance.md.
 */

/** Counts what the exporter sends and accepts it at once, as a collector's receiver would. */
export interface OtlpSink {
  url: string;
  requests: number;
  bytes: number;
  close(): Promise<void>;
}

export async function startOtlpSink(): Promise<OtlpSink> {
  const sink = { requests: 0, bytes: 0 };
  const server: HttpServer = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => (sink.bytes += chunk.length));
    request.on('end', () => {
      sink.requests += 1;
      response.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get requests() {
      return sink.requests;
    },
    get bytes() {
      return sink.bytes;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface TracingVariant {
  /** off, today, on 10%, on */
  label: string;
  server: Server;
}

export interface TracingOperation {
  name: string;
  target: (server: Server) => LoadTarget;
}

export interface TracingRow {
  operation: string;
  connections: number;
  results: Map<string, LoadResult>;
}

export async function compareTracing(
  variants: TracingVariant[],
  operations: TracingOperation[],
  concurrency: number[],
  seconds: number,
  slices: number,
): Promise<TracingRow[]> {
  const rows: TracingRow[] = [];
  for (const op of operations) {
    for (const variant of variants) {
      log(`tracing: ${op.name} (${variant.label}) warm-up`);
      await measure(op.target(variant.server), 16, 2, variant.server.pid);
    }
    for (const connections of concurrency) {
      const runs = new Map<string, LoadResult[]>(variants.map((v) => [v.label, []]));
      for (let i = 0; i < slices; i += 1) {
        const order = i % 2 === 0 ? variants : [...variants].reverse();
        for (const variant of order) {
          const run = await measure(
            op.target(variant.server),
            connections,
            seconds / slices,
            variant.server.pid,
          );
          runs.get(variant.label)!.push(run);
        }
      }
      const results = new Map([...runs].map(([label, list]) => [label, mergeRuns(list)]));
      for (const [label, run] of results)
        log(
          `  ${op.name} c${connections} ${label}: p50 ${run.p50.toFixed(2)} ms, ` +
            `CPU ${(run.cpuMs / run.requests).toFixed(3)} ms/req, ${run.requests} requests, ` +
            `non-2xx ${run.non2xx}`,
        );
      rows.push({ operation: op.name, connections, results });
    }
  }
  return rows;
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : '-');
const cpu = (run: LoadResult | undefined) => (run ? run.cpuMs / run.requests : NaN);
const change = (value: number, base: number) =>
  Number.isFinite(value) && Number.isFinite(base) && base > 0
    ? `${value >= base ? '+' : ''}${(((value - base) / base) * 100).toFixed(1)} %`
    : '-';

export function tracingTable(rows: TracingRow[], labels: string[]): string {
  const today = labels.includes('today');
  const header = [
    'operation',
    'c',
    ...labels.map((label) => `p50 ${label} (ms)`),
    ...labels.map((label) => `CPU ms/req ${label}`),
    ...labels.filter((label) => label.startsWith('on')).map((label) => `CPU ${label} vs off`),
    ...(today ? ['CPU off vs today', 'p50 off vs today'] : []),
    'non-2xx',
  ];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const row of rows) {
    const get = (label: string) => row.results.get(label);
    const off = get('off');
    const before = get('today');
    lines.push(
      `| ${[
        row.operation,
        row.connections,
        ...labels.map((label) => ms(get(label)?.p50 ?? NaN)),
        ...labels.map((label) => cpu(get(label)).toFixed(3)),
        ...labels
          .filter((label) => label.startsWith('on'))
          .map((label) => change(cpu(get(label)), cpu(off))),
        ...(today
          ? [change(cpu(off), cpu(before)), change(off?.p50 ?? NaN, before?.p50 ?? NaN)]
          : []),
        labels.map((label) => get(label)?.non2xx ?? 0).join(' / '),
      ].join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

const START = '<!-- tracing-bench:start -->';
const END = '<!-- tracing-bench:end -->';

/** Replaces the `## Tracing` section (between its markers), or appends it. */
export async function writeTracingSection(path: string, body: string): Promise<void> {
  const section = `## Tracing\n\n${START}\n${body.trim()}\n${END}\n`;
  const text = await readFile(path, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  let next: string;
  if (start >= 0 && end > start) {
    const heading = text.lastIndexOf('## Tracing', start);
    next = text.slice(0, heading >= 0 ? heading : start) + section + text.slice(end + END.length);
  } else {
    next = `${text.trimEnd()}\n\n${section}`;
  }
  await writeMarkdown(path, `${next.trimEnd()}\n`);
}
