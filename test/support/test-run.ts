import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What ties the processes and files of one `npm test` run together, so global teardown can
 * prove that the run left nothing behind. Global setup sets both variables; jest's workers
 * and every process a test spawns inherit them.
 */
export const RUN_MARKER_VARIABLE = 'GPUMARKET_TEST_RUN';

export function startRun(): { marker: string; tmpDir: string } {
  const marker = randomUUID();
  // os.tmpdir() follows TMPDIR: every temporary file of the run lands in one directory.
  const tmpDir = join(tmpdir(), `gpumarket-test-${marker.slice(0, 8)}`);
  process.env[RUN_MARKER_VARIABLE] = marker;
  process.env.TMPDIR = tmpDir;
  return { marker, tmpDir };
}

export interface RunProcess {
  pid: number;
  command: string;
}

/**
 * Processes still alive that carry the run's marker in their environment, except the jest
 * process itself and its ancestors (Linux /proc; elsewhere nothing is found).
 */
export function processesOfRun(marker: string): RunProcess[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return [];
  }
  const own = new Set([process.pid, process.ppid]);
  const found: RunProcess[] = [];
  for (const entry of entries) {
    const pid = Number(entry);
    if (own.has(pid)) continue;
    try {
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      if (!environ.includes(`${RUN_MARKER_VARIABLE}=${marker}`)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue; // exited, not reaped
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
      found.push({ pid, command });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}
