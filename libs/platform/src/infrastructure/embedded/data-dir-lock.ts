import { linkSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { StartupError } from '../../config/startup-error';

/**
 * Who holds an embedded data directory, as written in its lock file `<dir>.lock`: the api
 * (which then publishes the directory of the unix socket it serves the database on) or a
 * `manage` command that opened PGlite itself.
 */
export interface DataDirHolder {
  pid: number;
  role: 'api' | 'manage';
  /** What the holder is doing, for the refusal message (e.g. "manage fixtures:load"). */
  command: string;
  /** Directory of the PostgreSQL unix socket `.s.PGSQL.5432`, once the api serves it. */
  socketDir?: string;
}

export function lockFileOf(dataDir: string): string {
  return `${dataDir}.lock`;
}

/** A held lock: `publish` records the api's socket, `release` removes the lock file. */
export interface DataDirLock {
  readonly path: string;
  publish(socketDir: string): void;
  release(): void;
}

export function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readHolder(lockFile: string): DataDirHolder | null {
  try {
    const parsed = JSON.parse(readFileSync(lockFile, 'utf8')) as DataDirHolder;
    return typeof parsed.pid === 'number' ? parsed : null;
  } catch {
    return null;
  }
}

/** Writes `holder` to a private temporary file next to the lock and returns its path. */
function writeCandidate(lockFile: string, holder: DataDirHolder): string {
  const candidate = join(dirname(lockFile), `.${basename(lockFile)}.${process.pid}.tmp`);
  writeFileSync(candidate, JSON.stringify(holder), { mode: 0o600 });
  return candidate;
}

/**
 * Removes a lock file whose holder has died, unless another process replaced it in the
 * meantime: the file is first moved aside (atomic), then checked to be the dead holder's.
 */
function removeStale(lockFile: string, dead: DataDirHolder): void {
  const aside = `${lockFile}.stale.${process.pid}`;
  try {
    renameSync(lockFile, aside);
  } catch {
    return; // already gone: another opener cleaned it up
  }
  const moved = readHolder(aside);
  if (moved && moved.pid !== dead.pid) {
    // A live holder took the lock between our read and the rename: give it back.
    try {
      linkSync(aside, lockFile);
    } catch {
      // someone else holds it now; theirs stands
    }
  }
  rmSync(aside, { force: true });
}

/**
 * Takes the exclusive lock of an embedded data directory, or returns the current holder.
 * The lock file appears atomically with its full content (link of a written file), so a
 * reader never sees it half-written. A holder whose process is gone (killed, crashed) is
 * stale and replaced; a live one is returned for the caller to connect to or refuse.
 */
export function tryLockDataDir(
  dataDir: string,
  holder: Omit<DataDirHolder, 'pid'>,
): { lock: DataDirLock } | { holder: DataDirHolder } {
  const lockFile = lockFileOf(dataDir);
  const mine: DataDirHolder = { pid: process.pid, ...holder };
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const candidate = writeCandidate(lockFile, mine);
    try {
      linkSync(candidate, lockFile);
      return { lock: heldLock(lockFile, mine) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(candidate, { force: true });
    }
    const current = readHolder(lockFile);
    if (current && current.pid !== process.pid && isAlive(current.pid)) return { holder: current };
    // Dead holder, our own pid from an earlier life (containers reuse pids), or unreadable.
    removeStale(lockFile, current ?? { pid: -1, role: 'manage', command: 'unknown' });
  }
  throw new StartupError(
    `Cannot lock ${dataDir}: its lock file ${lockFile} keeps changing; check EMBEDDED_DATA_DIR`,
  );
}

function heldLock(lockFile: string, mine: DataDirHolder): DataDirLock {
  let held = true;
  const release = (): void => {
    if (!held) return;
    held = false;
    process.off('exit', release);
    // Only our own lock: never remove one a later holder wrote.
    if (readHolder(lockFile)?.pid === process.pid) {
      try {
        unlinkSync(lockFile);
      } catch {
        // already removed
      }
    }
  };
  // However the process ends short of a kill, the directory is left unlocked.
  process.on('exit', release);
  return {
    path: lockFile,
    publish: (socketDir) => {
      const candidate = writeCandidate(lockFile, { ...mine, socketDir });
      renameSync(candidate, lockFile);
    },
    release,
  };
}
