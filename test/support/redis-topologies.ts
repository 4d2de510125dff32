import { ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import { freePort } from './own-redis';
import { CONDITION_TIMEOUT_MS } from './wait';

/**
 * Real Redis topologies started by the tests themselves from the `redis-server` and
 * `redis-cli` binaries: a Redis Cluster of masters, and a master with a replica watched by
 * three Sentinels. Each lives in a temporary directory and is torn down completely.
 */

const run = promisify(execFile);

/**
 * Polls `probe` until it returns true (bounded); throws with `what` when it never does. A
 * probe that never settles (a command on a connection stuck in a failover) is cut at the
 * deadline too: the wait's bound holds whatever the probe does.
 */
export async function until(
  what: string,
  probe: () => Promise<boolean>,
  timeoutMs = CONDITION_TIMEOUT_MS,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let pause = 20; Date.now() < deadline; pause = Math.min(pause * 2, 250)) {
    const answer = await settledBefore(
      probe().catch(() => false),
      deadline,
    );
    if (answer === 'unsettled') throw new Error(`timed out waiting until ${what}: a probe hung`);
    if (answer) return;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
  throw new Error(`timed out waiting until ${what}`);
}

async function settledBefore<T>(work: Promise<T>, deadline: number): Promise<T | 'unsettled'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'unsettled'>((resolve) => {
    timer = setTimeout(() => resolve('unsettled'), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** One redis-server process on a loopback port. */
export class RedisProcess {
  private child: ChildProcess | null = null;

  constructor(
    readonly port: number,
    private readonly args: string[],
  ) {}

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  async start(): Promise<void> {
    this.child = spawn('redis-server', this.args, { stdio: 'ignore' });
    await until(`redis-server :${this.port} answers`, () => this.command(['PING']).then(Boolean));
  }

  /** One command on a short-lived connection (a probe, never the code under test). */
  async command(args: string[]): Promise<unknown> {
    const client = new Redis({
      host: '127.0.0.1',
      port: this.port,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      connectTimeout: 1_000,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return await client.call(args[0], ...args.slice(1));
    } finally {
      client.disconnect();
    }
  }

  async kill(): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }
}

/**
 * A free port whose cluster bus port (port + 10000) is free as well.
 */
async function freeClusterPort(taken: Set<number>): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port + 10_000 > 65_535 || taken.has(port)) continue;
    const bus = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port + 10_000, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (bus) {
      taken.add(port);
      return port;
    }
  }
}

/**
 * A Redis Cluster of `masters` masters, each with `replicas` replicas (none by default),
 * made by `redis-cli --cluster create`; cluster-node-timeout 2000 ms.
 */
export class RedisCluster {
  private constructor(
    private readonly dir: string,
    private readonly nodes: RedisProcess[],
  ) {}

  static async start(masters = 3, replicas = 0): Promise<RedisCluster> {
    const dir = await mkdtemp(join(tmpdir(), 'redis-cluster-'));
    const taken = new Set<number>();
    const nodes: RedisProcess[] = [];
    for (let i = 0; i < masters * (1 + replicas); i += 1) {
      const port = await freeClusterPort(taken);
      nodes.push(
        new RedisProcess(port, [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          join(dir, `nodes-${port}.conf`),
          '--cluster-node-timeout',
          '2000',
          '--dir',
          dir,
          '--save',
          '',
          '--appendonly',
          'no',
        ]),
      );
    }
    const cluster = new RedisCluster(dir, nodes);
    try {
      await Promise.all(nodes.map((node) => node.start()));
      await run('redis-cli', [
        '--cluster',
        'create',
        ...nodes.map((node) => `127.0.0.1:${node.port}`),
        '--cluster-replicas',
        String(replicas),
        '--cluster-yes',
      ]);
      await until('every node reports cluster_state:ok', async () => {
        const states = await Promise.all(nodes.map((node) => node.command(['CLUSTER', 'INFO'])));
        return states.every((info) => String(info).includes('cluster_state:ok'));
      });
    } catch (error) {
      await cluster.stop();
      throw error;
    }
    return cluster;
  }

  /** The value of REDIS_CLUSTER_NODES. */
  get nodesSetting(): string {
    return this.nodes.map((node) => `127.0.0.1:${node.port}`).join(',');
  }

  /**
   * Makes every node forget who serves `slot` (CLUSTER DELSLOTS on each): with
   * cluster-require-full-coverage (the default) the whole cluster then refuses every keyed
   * command with CLUSTERDOWN, while PING still answers on every node.
   */
  async uncoverSlot(slot: number): Promise<void> {
    await Promise.all(
      this.nodes.map((node) => node.command(['CLUSTER', 'DELSLOTS', String(slot)])),
    );
    await until('every node reports cluster_state:fail', async () => {
      const states = await Promise.all(this.nodes.map((node) => node.command(['CLUSTER', 'INFO'])));
      return states.every((info) => String(info).includes('cluster_state:fail'));
    });
  }

  /** The nodes that are masters now (CLUSTER NODES as one node sees it). */
  async masters(): Promise<RedisProcess[]> {
    const view = String(
      await this.nodes.find((node) => node.running)!.command(['CLUSTER', 'NODES']),
    );
    const ports = view
      .split('\n')
      .filter(
        (line) =>
          / master /.test(` ${line.split(' ')[2]?.replace(/,/g, ' ')} `) && !line.includes('fail'),
      )
      .map((line) => Number(/:(\d+)@/.exec(line)?.[1]));
    return this.nodes.filter((node) => ports.includes(node.port));
  }

  /** Whether every live node reports cluster_state:ok. */
  async ok(): Promise<boolean> {
    const states = await Promise.all(
      this.nodes.filter((node) => node.running).map((node) => node.command(['CLUSTER', 'INFO'])),
    );
    return states.every((info) => String(info).includes('cluster_state:ok'));
  }

  /** PING on every node: what a keyless health check sees. */
  async pingEveryNode(): Promise<unknown[]> {
    return Promise.all(this.nodes.map((node) => node.command(['PING'])));
  }

  /** Commands each master has processed (INFO stats), to see that all of them serve. */
  async commandsPerNode(): Promise<number[]> {
    return Promise.all(
      this.nodes.map(async (node) => {
        const info = String(await node.command(['INFO', 'stats']));
        return Number(/total_commands_processed:(\d+)/.exec(info)?.[1] ?? 0);
      }),
    );
  }

  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((node) => node.kill()));
    await rm(this.dir, { recursive: true, force: true });
  }
}

export interface SentinelGroupOptions {
  /** Replicas of the master (1 by default). */
  replicas?: number;
  /**
   * `min-replicas-to-write` on every node (the master now, and each replica should it be
   * promoted), with `min-replicas-max-lag 10`: a master cut off from its replicas refuses
   * writes instead of acknowledging writes a failover would lose (docs/operations.md).
   */
  minReplicasToWrite?: number;
}

/** A master, its replicas and three Sentinels (quorum 2) monitoring them as `name`. */
export class RedisSentinelGroup {
  readonly name = 'gpumarket';

  private constructor(
    private readonly dir: string,
    readonly master: RedisProcess,
    readonly replicas: RedisProcess[],
    private readonly sentinels: RedisProcess[],
  ) {}

  /** The first replica. */
  get replica(): RedisProcess {
    return this.replicas[0];
  }

  static async start(options: SentinelGroupOptions = {}): Promise<RedisSentinelGroup> {
    const dir = await mkdtemp(join(tmpdir(), 'redis-sentinel-'));
    const common = ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
    if (options.minReplicasToWrite)
      common.push(
        '--min-replicas-to-write',
        String(options.minReplicasToWrite),
        '--min-replicas-max-lag',
        '10',
      );
    const masterPort = await freePort();
    const master = new RedisProcess(masterPort, ['--port', String(masterPort), ...common]);
    const replicas: RedisProcess[] = [];
    for (let i = 0; i < (options.replicas ?? 1); i += 1) {
      const port = await freePort();
      replicas.push(
        new RedisProcess(port, [
          '--port',
          String(port),
          '--replicaof',
          '127.0.0.1',
          String(masterPort),
          ...common,
        ]),
      );
    }
    // Each Sentinel is told the replicas and its peers up front (Sentinel's own
    // known-replica / known-sentinel lines) instead of learning them from INFO and hello
    // messages every few seconds, which can take long on a busy machine.
    const peers: Array<{ port: number; id: string }> = [];
    for (let i = 0; i < 3; i += 1)
      peers.push({ port: await freePort(), id: randomBytes(20).toString('hex') });
    const sentinels: RedisProcess[] = [];
    for (const { port, id } of peers) {
      const config = join(dir, `sentinel-${port}.conf`);
      await writeFile(
        config,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${dir}`,
          `sentinel myid ${id}`,
          `sentinel monitor gpumarket 127.0.0.1 ${masterPort} 2`,
          'sentinel down-after-milliseconds gpumarket 1000',
          'sentinel failover-timeout gpumarket 10000',
          'sentinel parallel-syncs gpumarket 1',
          ...replicas.map(
            (replica) => `sentinel known-replica gpumarket 127.0.0.1 ${replica.port}`,
          ),
          ...peers
            .filter((peer) => peer.port !== port)
            .map((peer) => `sentinel known-sentinel gpumarket 127.0.0.1 ${peer.port} ${peer.id}`),
          '',
        ].join('\n'),
      );
      sentinels.push(new RedisProcess(port, [config, '--sentinel']));
    }
    const group = new RedisSentinelGroup(dir, master, replicas, sentinels);
    try {
      await master.start();
      for (const replica of replicas) await replica.start();
      await until('the replicas are in sync', async () => {
        const infos = await Promise.all(replicas.map((r) => r.command(['INFO', 'replication'])));
        return infos.every((info) => String(info).includes('master_link_status:up'));
      });
      await Promise.all(sentinels.map((sentinel) => sentinel.start()));
      // A failover needs every Sentinel to know the replicas and the other Sentinels.
      await until('the sentinels know the replicas and each other', async () => {
        const views = await Promise.all(
          sentinels.map(async (sentinel) => ({
            replicas: (await sentinel.command(['SENTINEL', 'REPLICAS', 'gpumarket'])) as unknown[],
            peers: (await sentinel.command(['SENTINEL', 'SENTINELS', 'gpumarket'])) as unknown[],
          })),
        );
        return views.every(
          (view) => view.replicas.length === replicas.length && view.peers.length === 2,
        );
      });
    } catch (error) {
      await group.stop();
      throw error;
    }
    return group;
  }

  /** Asks a Sentinel for a failover now (SENTINEL FAILOVER), the master being healthy. */
  async failover(): Promise<void> {
    await this.sentinels[0].command(['SENTINEL', 'FAILOVER', this.name]);
  }

  /** The role a node reports (INFO replication): `master` or `slave`. */
  static async role(node: RedisProcess): Promise<string> {
    const info = String(await node.command(['INFO', 'replication']));
    return /role:(\w+)/.exec(info)?.[1] ?? 'unknown';
  }

  /** The value of REDIS_SENTINELS. */
  get sentinelsSetting(): string {
    return this.sentinels.map((sentinel) => `127.0.0.1:${sentinel.port}`).join(',');
  }

  /** The port the Sentinels currently name as master. */
  async masterPort(): Promise<number> {
    const [, port] = (await this.sentinels[0].command([
      'SENTINEL',
      'GET-MASTER-ADDR-BY-NAME',
      this.name,
    ])) as [string, string];
    return Number(port);
  }

  async stop(): Promise<void> {
    await Promise.all(
      [this.master, ...this.replicas, ...this.sentinels].map((process) => process.kill()),
    );
    await rm(this.dir, { recursive: true, force: true });
  }
}
