import { readFile } from 'node:fs/promises';
import { writeMarkdown } from './docs';
import { LoadResult } from './load-measure';

/** Tables of the load benchmark and its section of docs/performance.md. */

export interface OperationResult {
  name: string;
  target: 'api' | 'baseline';
  runs: LoadResult[];
  note?: string;
}

export interface SoakSummary {
  seconds: number;
  connections: number;
  /** Seconds since the start, the api's RSS and its V8 heap in use (MiB). */
  samples: Array<{ t: number; rss: number; heap: number }>;
  firstAvg: number;
  lastAvg: number;
  firstHeapAvg: number;
  lastHeapAvg: number;
  window: number;
  growth: number;
  pass: boolean;
  result: LoadResult;
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : '-');
const mib = (value: number) => value.toFixed(0);

export function resultsTable(operations: OperationResult[]): string {
  const lines = [
    '| Operation | server | c | p50 ms | p99 ms | req/s | requests | non-2xx | socket errors | CPU ms/req | RSS MiB end (peak) |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const op of operations) {
    for (const run of op.runs) {
      lines.push(
        `| ${op.name} | ${op.target} | ${run.connections} | ${ms(run.p50)} | ${ms(run.p99)} | ${run.rps.toFixed(0)} | ${run.requests} | ${run.non2xx} | ${run.socketErrors} | ${ms(run.cpuMs / run.requests)} | ${mib(run.rssEnd)} (${mib(run.rssPeak)}) |`,
      );
    }
  }
  return lines.join('\n');
}

export function ratioTable(api: OperationResult, baseline: OperationResult): string {
  const lines = [
    '| c | api p50 | baseline p50 | p50 api/baseline | p99 api/baseline | req/s api/baseline | CPU ms/req api / baseline |',
    '|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const run of api.runs) {
    const base = baseline.runs.find((b) => b.connections === run.connections);
    if (!base) continue;
    lines.push(
      `| ${run.connections} | ${ms(run.p50)} | ${ms(base.p50)} | ${(run.p50 / base.p50).toFixed(2)} | ${(run.p99 / base.p99).toFixed(2)} | ${(run.rps / base.rps).toFixed(2)} | ${ms(run.cpuMs / run.requests)} / ${ms(base.cpuMs / base.requests)} |`,
    );
  }
  return lines.join('\n');
}

function windowRange(
  samples: SoakSummary['samples'],
  inWindow: (sample: SoakSummary['samples'][number]) => boolean,
): string {
  const rss = samples.filter(inWindow).map((s) => s.rss);
  return `${mib(Math.min(...rss))}-${mib(Math.max(...rss))} MiB`;
}

/** Slope of the least-squares line through (t, RSS): robust to where the sawtooth's cycles fall. */
export function trendMiBPerMinute(samples: SoakSummary['samples']): number {
  const n = samples.length;
  const meanT = samples.reduce((sum, s) => sum + s.t, 0) / n;
  const meanR = samples.reduce((sum, s) => sum + s.rss, 0) / n;
  let covariance = 0;
  let variance = 0;
  for (const s of samples) {
    covariance += (s.t - meanT) * (s.rss - meanR);
    variance += (s.t - meanT) ** 2;
  }
  return variance > 0 ? (covariance / variance) * 60 : 0;
}

export function soakText(soak: SoakSummary): string {
  const rss = soak.samples.map((s) => s.rss);
  const heap = soak.samples.map((s) => s.heap).filter(Number.isFinite);
  const first = soak.samples[0];
  const last = soak.samples[soak.samples.length - 1];
  const heapGrowth = (soak.lastHeapAvg - soak.firstHeapAvg) / soak.firstHeapAvg;
  return [
    `Charges page at concurrency ${soak.connections} for ${soak.seconds} s: ${soak.result.requests} requests, ` +
      `${soak.result.rps.toFixed(0)} req/s, p50 ${ms(soak.result.p50)} ms, p99 ${ms(soak.result.p99)} ms, ` +
      `${soak.result.non2xx} non-2xx, ${soak.result.socketErrors} socket errors.`,
    '',
    `| api memory (MiB) | start (t = ${first.t} s) | end (t = ${last.t} s) | first ${soak.window} s average | last ${soak.window} s average | growth (averages) |`,
    '|---|---:|---:|---:|---:|---:|',
    `| RSS | ${first.rss.toFixed(1)} | ${last.rss.toFixed(1)} | ${soak.firstAvg.toFixed(1)} | ${soak.lastAvg.toFixed(1)} | ${(soak.growth * 100).toFixed(1)}% |`,
    `| V8 heap used | ${first.heap.toFixed(1)} | ${last.heap.toFixed(1)} | ${soak.firstHeapAvg.toFixed(1)} | ${soak.lastHeapAvg.toFixed(1)} | ${(heapGrowth * 100).toFixed(1)}% |`,
    '',
    `RSS sampled every ${Math.round(soak.seconds / Math.max(1, soak.samples.length - 1))} s ` +
      `(${soak.samples.length} samples): min ${mib(Math.min(...rss))} MiB, max ${mib(Math.max(...rss))} MiB. ` +
      `Growth of the last ${soak.window} s average over the first ${soak.window} s average: ` +
      `${(soak.growth * 100).toFixed(1)}% (limit 10%): **${soak.pass ? 'PASS' : 'FAIL'}**.`,
    '',
    `The RSS is a sawtooth (the V8 heap grows, then a collection returns memory), so a window's ` +
      `average depends on where the cycles fall. Lowest and highest sample of the first ${soak.window} s: ` +
      `${windowRange(soak.samples, (s) => s.t <= soak.window)}; of the last ${soak.window} s: ` +
      `${windowRange(soak.samples, (s) => s.t >= soak.seconds - soak.window)}. Least-squares trend over ` +
      `all samples: ${trendMiBPerMinute(soak.samples).toFixed(2)} MiB/min.`,
    '',
    `V8 heap used is read from the api's /metrics at arbitrary points of the collector's sawtooth ` +
      `(min ${mib(Math.min(...heap))} MiB, max ${mib(Math.max(...heap))} MiB): indicative only; the verdict is on RSS.`,
    '',
    `Samples (s: RSS MiB): ${soak.samples.map((s) => `${s.t}: ${mib(s.rss)}`).join(', ')}.`,
  ].join('\n');
}

const START = '<!-- load-bench:start -->';
const END = '<!-- load-bench:end -->';
const CHARGES_START = '<!-- charges-bench:start -->';
const CHARGES_END = '<!-- charges-bench:end -->';

/**
 * Replaces only the `## Load` section. The file is read right before writing, because the
 * charges benchmark writes its own section of the same file.
 */
export async function writeLoadSection(path: string, body: string): Promise<void> {
  const section = `## Load\n\n${START}\n${body.trim()}\n${END}\n`;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    // A new file keeps an empty place for the charges benchmark's markers, so its writer
    // fills its own section instead of appending under this one.
    text = `# Performance\n\n## Charges report\n\n${CHARGES_START}\n_Written by \`npm run bench:charges\`._\n${CHARGES_END}\n`;
  }
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start >= 0 && end > start) {
    const heading = text.lastIndexOf('## Load', start);
    const from = heading >= 0 ? heading : start;
    text = text.slice(0, from) + section + text.slice(end + END.length).replace(/^\n+/, '\n');
  } else {
    const heading = /^## Load\s*$/m.exec(text);
    if (heading) {
      const rest = text.slice(heading.index + heading[0].length);
      const next = /^## /m.exec(rest);
      text = text.slice(0, heading.index) + section + (next ? `\n${rest.slice(next.index)}` : '');
    } else {
      text = `${text.trimEnd()}\n\n${section}`;
    }
  }
  await writeMarkdown(path, `${text.trimEnd()}\n`);
}
