import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import Redis from 'ioredis';

/** A free loopback TCP port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface OwnRedisOptions {
  /**
   * Keep the data in an append-only file in this directory, written through on every
   * command (appendfsync always), so a SIGKILLed server restarts with everything it
   * acknowledged. Without it the server keeps nothing across a restart.
   */
  persistDir?: string;
}

/**
 * A private redis-server for fault tests: it can be stopped and started without touching
 * the Redis every other test uses.
 */
export class OwnRedis {
  private child: ChildProcess | null = null;

  constructor(
    readonly port: number,
    private readonly options: OwnRedisOptions = {},
  ) {}

  static async start(options: OwnRedisOptions = {}): Promise<OwnRedis> {
    const redis = new OwnRedis(await freePort(), options);
    await redis.start();
    return redis;
  }

  /** True between start() and stop(). */
  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const persistence = this.options.persistDir
      ? ['--dir', this.options.persistDir, '--appendonly', 'yes', '--appendfsync', 'always']
      : ['--appendonly', 'no'];
    this.child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', ...persistence],
      {
        stdio: 'ignore',
      },
    );
    const probe = new Redis(this.url, {
      lazyConnect: true,
      retryStrategy: () => 50,
      maxRetriesPerRequest: null,
    });
    probe.on('error', () => undefined);
    try {
      await probe.connect().catch(() => undefined);
      await probe.ping();
    } finally {
      probe.disconnect();
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
    this.child = null;
  }
}
