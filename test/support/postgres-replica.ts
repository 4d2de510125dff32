import { execFile } from 'node:child_process';
import { appendFile, chmod, chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort } from './own-redis';
import { until } from './redis-topologies';

/**
 * A PostgreSQL primary and a streaming replica of its own, started by the tests from the
 * server binaries on this machine: the primary is a fresh cluster (initdb) configured for
 * replication, the replica a `pg_basebackup -R` of it. Neither touches the PostgreSQL the
 * other tests use. PostgreSQL refuses to run as root, so under root the tools run as the
 * `postgres` user.
 */

const run = promisify(execFile);
const BIN = process.env.PG_BIN_DIR ?? '/usr/lib/postgresql/15/bin';
const RUN_AS_POSTGRES = process.getuid?.() === 0;

async function pgTool(tool: string, args: string[]): Promise<string> {
  const [file, argv] = RUN_AS_POSTGRES
    ? ['runuser', ['-u', 'postgres', '--', join(BIN, tool), ...args]]
    : [join(BIN, tool), args];
  const { stdout } = await run(file, argv, { cwd: tmpdir() });
  return stdout;
}

export class PostgresWithReplica {
  private replicaRunning = false;

  private constructor(
    private readonly dir: string,
    readonly primaryPort: number,
    readonly replicaPort: number,
  ) {}

  /**
   * `replica: false` starts the primary alone; `settings` are added to its configuration
   * (e.g. a small max_connections).
   */
  static async start(
    options: { replica?: boolean; settings?: Record<string, string> } = {},
  ): Promise<PostgresWithReplica> {
    const dir = await mkdtemp(join(tmpdir(), 'pg-replica-'));
    if (RUN_AS_POSTGRES) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      await chown(dir, Number(stdout), Number(gid));
    }
    await chmod(dir, 0o700);
    const pg = new PostgresWithReplica(dir, await freePort(), await freePort());
    try {
      await pgTool('initdb', [
        '-D',
        pg.primaryDir,
        '-U',
        'postgres',
        '--auth=trust',
        '--no-sync',
        '-E',
        'UTF8',
      ]);
      await appendFile(
        join(pg.primaryDir, 'postgresql.conf'),
        [
          '',
          'wal_level = replica',
          'max_wal_senders = 4',
          'hot_standby = on',
          'fsync = off',
          'synchronous_commit = off',
          'full_page_writes = off',
          'shared_buffers = 32MB',
          'max_connections = 60',
          ...Object.entries(options.settings ?? {}).map(([name, value]) => `${name} = ${value}`),
          '',
        ].join('\n'),
      );
      await appendFile(
        join(pg.primaryDir, 'pg_hba.conf'),
        'host replication postgres 127.0.0.1/32 trust\n',
      );
      await pg.ctl(pg.primaryDir, pg.primaryPort, 'start');
      if (options.replica === false) return pg;
      await pgTool('pg_basebackup', [
        '-h',
        '127.0.0.1',
        '-p',
        String(pg.primaryPort),
        '-U',
        'postgres',
        '-D',
        pg.replicaDir,
        '-R',
        '-X',
        'stream',
        '--no-sync',
      ]);
      await pg.startReplica();
    } catch (error) {
      await pg.stop();
      throw error;
    }
    return pg;
  }

  private get primaryDir(): string {
    return join(this.dir, 'primary');
  }

  private get replicaDir(): string {
    return join(this.dir, 'replica');
  }

  url(database: string, node: 'primary' | 'replica'): string {
    const port = node === 'primary' ? this.primaryPort : this.replicaPort;
    return `postgres://postgres@127.0.0.1:${port}/${database}`;
  }

  async startReplica(): Promise<void> {
    await this.ctl(this.replicaDir, this.replicaPort, 'start');
    this.replicaRunning = true;
    await until(
      'the replica accepts read-only connections',
      async () =>
        (await this.query('replica', 'postgres', 'SELECT pg_is_in_recovery() AS r'))[0].r === true,
    );
  }

  /** Stops the replica at once, as a crash would (`-m immediate`). */
  async stopReplica(): Promise<void> {
    if (!this.replicaRunning) return;
    this.replicaRunning = false;
    await pgTool('pg_ctl', ['-D', this.replicaDir, '-m', 'immediate', '-w', 'stop']);
  }

  /**
   * Freezes every process of the replica (SIGSTOP: postmaster, startup, WAL receiver,
   * backends), as a hung host or a stalled disk would: connections stay open, nothing
   * answers. thawReplica() resumes them.
   */
  async freezeReplica(): Promise<void> {
    for (const pid of await this.replicaProcesses()) process.kill(pid, 'SIGSTOP');
  }

  async thawReplica(): Promise<void> {
    for (const pid of await this.replicaProcesses()) process.kill(pid, 'SIGCONT');
  }

  /**
   * Points the replica's primary_conninfo nowhere: its WAL receiver stops, and the replica
   * keeps serving what it had replayed, falling behind as the primary moves on.
   * Returns what restoreReceiver() needs.
   */
  async cutReceiver(): Promise<string> {
    const [{ primary_conninfo: original }] = await this.query(
      'replica',
      'postgres',
      'SHOW primary_conninfo',
    );
    await this.query(
      'replica',
      'postgres',
      `ALTER SYSTEM SET primary_conninfo = 'host=127.0.0.1 port=1 user=postgres connect_timeout=1'`,
    );
    await this.query('replica', 'postgres', 'SELECT pg_reload_conf()');
    await until('the WAL receiver stopped streaming', async () => {
      const rows = await this.query(
        'replica',
        'postgres',
        `SELECT 1 FROM pg_stat_wal_receiver WHERE status = 'streaming'`,
      );
      return rows.length === 0;
    });
    return String(original);
  }

  async restoreReceiver(original: string): Promise<void> {
    await this.query(
      'replica',
      'postgres',
      `ALTER SYSTEM SET primary_conninfo = '${original.replace(/'/g, "''")}'`,
    );
    await this.query('replica', 'postgres', 'SELECT pg_reload_conf()');
    await this.caughtUp();
  }

  /** The replica's postmaster and its children. */
  private async replicaProcesses(): Promise<number[]> {
    const postmaster = Number(
      (await readFile(join(this.replicaDir, 'postmaster.pid'), 'utf8')).split('\n')[0],
    );
    const children = await readFile(
      `/proc/${postmaster}/task/${postmaster}/children`,
      'utf8',
    ).catch(() => '');
    return [postmaster, ...children.split(/\s+/).filter(Boolean).map(Number)];
  }

  /** Waits until the replica has replayed everything the primary has written so far. */
  async caughtUp(): Promise<void> {
    // The insert position, not pg_current_wal_lsn() (what is written so far): this cluster
    // runs synchronous_commit = off, so a commit may still sit in the WAL buffers.
    const [{ lsn }] = await this.query(
      'primary',
      'postgres',
      'SELECT pg_current_wal_insert_lsn() AS lsn',
    );
    await until('the replica replayed the primary', async () => {
      const [row] = await this.query(
        'replica',
        'postgres',
        'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done',
        [lsn],
      );
      return row.done === true;
    });
  }

  async query(
    node: 'primary' | 'replica',
    database: string,
    text: string,
    values: unknown[] = [],
  ): Promise<Array<Record<string, unknown>>> {
    const client = new Client({ connectionString: this.url(database, node) });
    await client.connect();
    try {
      return (await client.query(text, values)).rows;
    } finally {
      await client.end();
    }
  }

  async stop(): Promise<void> {
    await this.stopReplica().catch(() => undefined);
    await pgTool('pg_ctl', ['-D', this.primaryDir, '-m', 'immediate', '-w', 'stop']).catch(
      () => undefined,
    );
    await rm(this.dir, { recursive: true, force: true });
  }

  private async ctl(dataDir: string, port: number, action: 'start'): Promise<void> {
    // Sockets in the cluster's own directory: nothing shared with the machine's server.
    await pgTool('pg_ctl', [
      '-D',
      dataDir,
      '-l',
      join(this.dir, `${port}.log`),
      '-o',
      `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${this.dir}`,
      '-w',
      action,
    ]);
  }
}
