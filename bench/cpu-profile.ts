/**
 * `npm run bench:profile -- <a.cpuprofile> [<b.cpuprofile>] [options]`: where a process's
 * CPU went, from the profiles `node --cpu-prof` writes, as the table docs/performance.md
 * keeps ("Where the api's CPU goes"). Self time is summed by package (a node_modules
 * package, our own `libs/<context>` or `apps/<app>`, a `node:` module, or V8's own entries:
 * garbage collector, program, native calls such as writev) or, with `--by function`, by
 * function. Idle time is left out.
 *
 * With one profile: each entry's share of the busy time. With two (say the api and the bare
 * Node server under the same load): each entry in microseconds per request, side by side,
 * ordered by the difference, so what the second adds shows first, each named by the folder
 * its profile is in (`--cpu-prof-dir`). `--requests N[,M]` gives
 * the requests each profile served (autocannon says), `--skip-ms S` leaves out the first
 * S milliseconds of each (start-up and warm-up), `--top K` the number of rows (25).
 */
import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

type Grouping = 'package' | 'function';

/** What a sample's frame is counted under. */
export function groupOf(frame: ProfileNode['callFrame'], by: Grouping): string {
  const url = frame.url ?? '';
  const modulePath = url.match(/node_modules\/((@[^/]+\/)?[^/]+)/);
  const ownPath = url.match(/\/((?:libs|apps)\/[^/]+|bench)\//);
  if (by === 'function') {
    const where = modulePath
      ? url.slice(url.lastIndexOf('node_modules/') + 'node_modules/'.length)
      : ownPath
        ? url.slice(url.indexOf(ownPath[1]))
        : url;
    return `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
  }
  if (modulePath) return modulePath[1];
  if (ownPath) return ownPath[1];
  if (url.startsWith('node:')) return url.split('/')[0];
  return frame.functionName || '(unknown)';
}

/** Self time in microseconds by group, after the first `skipMs`, idle left out. */
export function selfTimes(profile: CpuProfile, by: Grouping, skipMs: number): Map<string, number> {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const times = new Map<string, number>();
  let elapsed = 0;
  profile.samples.forEach((nodeId, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    elapsed += delta;
    const frame = frames.get(nodeId);
    if (elapsed < skipMs * 1000 || !frame || frame.functionName === '(idle)') return;
    const group = groupOf(frame, by);
    times.set(group, (times.get(group) ?? 0) + delta);
  });
  return times;
}

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : process.argv[index + 1];
}

function main(): void {
  const files = process.argv.slice(2).filter((arg, index, all) => {
    const previous = all[index - 1];
    return !arg.startsWith('--') && !(previous?.startsWith('--') ?? false);
  });
  if (files.length < 1 || files.length > 2) {
    process.stderr.write(
      'usage: cpu-profile <a.cpuprofile> [<b.cpuprofile>] [--by package|function] ' +
        '[--requests N[,M]] [--skip-ms S] [--top K]\n',
    );
    process.exit(2);
  }
  const by = option('by', 'package') as Grouping;
  const skipMs = Number(option('skip-ms', '0'));
  const top = Number(option('top', '25'));
  const requests = option('requests', '').split(',').filter(Boolean).map(Number);
  const tables = files.map((file) =>
    selfTimes(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, by, skipMs),
  );
  const total = (table: Map<string, number>) => [...table.values()].reduce((a, b) => a + b, 0);
  if (tables.length === 1) {
    const busy = total(tables[0]);
    const rows = [...tables[0]].sort((a, b) => b[1] - a[1]).slice(0, top);
    process.stdout.write(`| ${by} | share of busy time |\n| --- | ---: |\n`);
    for (const [group, time] of rows)
      process.stdout.write(`| ${group} | ${((100 * time) / busy).toFixed(1)} % |\n`);
    return;
  }
  if (requests.length !== 2) {
    process.stderr.write('two profiles need --requests N,M (the requests each served)\n');
    process.exit(2);
  }
  const [a, b] = tables.map((table, side) => {
    const perRequest = new Map<string, number>();
    for (const [group, time] of table) perRequest.set(group, time / requests[side]);
    return perRequest;
  });
  const groups = [...new Set([...a.keys(), ...b.keys()])];
  const rows = groups
    .map((group) => ({ group, a: a.get(group) ?? 0, b: b.get(group) ?? 0 }))
    .sort((x, y) => Math.abs(y.b - y.a) - Math.abs(x.b - x.a))
    .slice(0, top);
  // Each side is named by its profile's folder (node --cpu-prof-dir=<name>).
  const [nameA, nameB] = files.map((file) => basename(dirname(file)));
  process.stdout.write(
    `| ${by} | ${nameA} µs/req | ${nameB} µs/req | difference |\n| --- | ---: | ---: | ---: |\n` +
      `| all (busy) | ${total(a).toFixed(0)} | ${total(b).toFixed(0)} | ${(total(b) - total(a)).toFixed(0)} |\n`,
  );
  for (const row of rows)
    process.stdout.write(
      `| ${row.group} | ${row.a.toFixed(1)} | ${row.b.toFixed(1)} | ${(row.b - row.a).toFixed(1)} |\n`,
    );
}

if (require.main === module) main();
