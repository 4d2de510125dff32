import { OperatorProgress } from '@app/platform';

interface Output {
  write(text: string): unknown;
  isTTY?: boolean;
}

const BAR_WIDTH = 24;
const number = new Intl.NumberFormat('en-US');

function seconds(sinceMs: number, now: number): string {
  return `${((now - sinceMs) / 1000).toFixed(1)} s`;
}

/**
 * Progress of a long command on stderr. On a terminal: one bar redrawn in place per phase,
 * left on screen with its time when the phase ends. Elsewhere (a log, CI): plain lines, one
 * when a phase starts, at each further tenth, and one when it ends.
 */
export function stderrProgress(
  output: Output = process.stderr,
  now: () => number = Date.now,
): OperatorProgress {
  let phase: string | undefined;
  let phaseStarted = 0;
  let lastTenth = -1;
  const finished = new Set<string>();

  return {
    report(name, done, total, unit) {
      if (finished.has(name)) return;
      if (name !== phase) {
        phase = name;
        phaseStarted = now();
        lastTenth = -1;
      }
      const ratio = total > 0 ? Math.min(1, done / total) : 1;
      const counts = `${number.format(done)}/${number.format(total)} ${unit}`;
      const complete = done >= total;
      if (output.isTTY) {
        const filled = Math.round(ratio * BAR_WIDTH);
        const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
        const percent = `${Math.floor(ratio * 100)}%`.padStart(4);
        output.write(
          `\r\u001b[K${name.padEnd(26)} ${bar} ${percent}  ${counts}  ${seconds(phaseStarted, now())}` +
            (complete ? '\n' : ''),
        );
      } else {
        const tenth = Math.floor(ratio * 10);
        if (complete) {
          output.write(`${name}: ${counts} done in ${seconds(phaseStarted, now())}\n`);
        } else if (tenth > lastTenth) {
          lastTenth = tenth;
          output.write(`${name}: ${counts} (${Math.floor(ratio * 100)}%)\n`);
        }
      }
      if (complete) finished.add(name);
    },
  };
}
