import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lockFileOf, tryLockDataDir } from './data-dir-lock';

/** The pid of a process that has already exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

describe('tryLockDataDir', () => {
  let parent: string;
  let dataDir: string;

  beforeEach(() => {
    parent = mkdtempSync(join(tmpdir(), 'data-dir-lock-'));
    dataDir = join(parent, 'pglite');
  });

  afterEach(() => rmSync(parent, { recursive: true, force: true }));

  it('takes a free directory, records who holds it, publishes the socket and releases', () => {
    const claim = tryLockDataDir(dataDir, { role: 'api', command: 'api' });
    if (!('lock' in claim)) throw new Error('expected the lock');
    expect(JSON.parse(readFileSync(lockFileOf(dataDir), 'utf8'))).toEqual({
      pid: process.pid,
      role: 'api',
      command: 'api',
    });
    claim.lock.publish('/tmp/socket-dir');
    expect(JSON.parse(readFileSync(lockFileOf(dataDir), 'utf8')).socketDir).toBe('/tmp/socket-dir');
    claim.lock.release();
    expect(existsSync(lockFileOf(dataDir))).toBe(false);
  });

  it('returns a live holder instead of taking the lock, leaving its file alone', () => {
    const holder = { pid: process.ppid, role: 'manage', command: 'manage seed:demo' };
    writeFileSync(lockFileOf(dataDir), JSON.stringify(holder));
    expect(tryLockDataDir(dataDir, { role: 'api', command: 'api' })).toEqual({ holder });
    expect(JSON.parse(readFileSync(lockFileOf(dataDir), 'utf8'))).toEqual(holder);
  });

  it('replaces the lock of a holder that died, and an unreadable lock file', () => {
    for (const stale of [
      JSON.stringify({ pid: deadPid(), role: 'api', command: 'api' }),
      'not json',
    ]) {
      writeFileSync(lockFileOf(dataDir), stale);
      const claim = tryLockDataDir(dataDir, { role: 'manage', command: 'manage outbox:list' });
      expect('lock' in claim).toBe(true);
      expect(JSON.parse(readFileSync(lockFileOf(dataDir), 'utf8')).pid).toBe(process.pid);
      if ('lock' in claim) claim.lock.release();
    }
  });

  it('never removes a lock that another process wrote after ours', () => {
    const claim = tryLockDataDir(dataDir, { role: 'manage', command: 'manage x' });
    if (!('lock' in claim)) throw new Error('expected the lock');
    const later = JSON.stringify({ pid: process.ppid, role: 'api', command: 'api' });
    writeFileSync(lockFileOf(dataDir), later);
    claim.lock.release();
    expect(readFileSync(lockFileOf(dataDir), 'utf8')).toBe(later);
  });
});
