import { ChildProcess } from 'node:child_process';
import { createServer, Server, Socket, connect } from 'node:net';
import { spawnApi } from '@test/support/api';
import { spawnWorker } from '@test/support/delivery';
import { OwnRedis } from '@test/support/own-redis';
import { TEST_DATABASE_URL } from '@test/support/test-env';

/**
 * Shutdown completes within SHUTDOWN_GRACE_MS + SHUTDOWN_TIMEOUT_MS whatever the state of
 * Redis or PostgreSQL: a stopped Redis still lets the api and the worker exit 0, and a
 * PostgreSQL that stops answering (a TCP proxy that swallows everything) cannot hold the
 * process past the deadline.
 */
const GRACE_MS = 500;
const TIMEOUT_MS = 4_000;
/** Room for a loaded machine to schedule the exit; the bound itself is the deadline. */
const SCHEDULING_SLACK_MS = 2_500;

const bounds = {
  SHUTDOWN_GRACE_MS: String(GRACE_MS),
  SHUTDOWN_TIMEOUT_MS: String(TIMEOUT_MS),
};

/** Signals the process and resolves with its exit code and how long the exit took. */
function stopTimed(
  child: ChildProcess,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<{ code: number | null; ms: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    child.once('exit', (code) => resolve({ code, ms: Date.now() - started }));
    child.kill(signal);
  });
}

/** A TCP proxy to PostgreSQL that can be made to swallow everything, like a hung server. */
class FreezableProxy {
  private frozen = false;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(target: URL): Promise<FreezableProxy> {
    const holder: { proxy?: FreezableProxy } = {};
    const server = createServer((client) => holder.proxy!.accept(client, target));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    holder.proxy = new FreezableProxy(
      server,
      typeof address === 'object' && address ? address.port : 0,
    );
    return holder.proxy;
  }

  private accept(client: Socket, target: URL): void {
    this.sockets.add(client);
    client.on('close', () => this.sockets.delete(client));
    client.on('error', () => undefined);
    if (this.frozen) return; // accepted, never answered
    const upstream = connect(Number(target.port || 5432), target.hostname);
    this.sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.on('close', () => this.sockets.delete(upstream));
    client.on('data', (chunk) => {
      if (!this.frozen) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!this.frozen) client.write(chunk);
    });
  }

  freeze(): void {
    this.frozen = true;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe('shutdown is bounded whatever the dependencies do', () => {
  let redis: OwnRedis;

  beforeEach(async () => {
    redis = await OwnRedis.start();
  });
  afterEach(async () => {
    await redis.stop();
  });

  it('the api exits 0 within its bound on SIGTERM while Redis is stopped', async () => {
    const api = await spawnApi({ ...bounds, REDIS_URL: redis.url });
    try {
      expect((await fetch(`${api.url}/health/live`)).status).toBe(200);
      await redis.stop();
      const { code, ms } = await stopTimed(api.child);
      expect({ code, withinBound: ms < GRACE_MS + TIMEOUT_MS + SCHEDULING_SLACK_MS }).toEqual({
        code: 0,
        withinBound: true,
      });
    } finally {
      api.child.kill('SIGKILL');
    }
  });

  it('the worker exits 0 within its bound on SIGTERM while Redis is stopped', async () => {
    const worker = await spawnWorker({ ...bounds, REDIS_URL: redis.url });
    try {
      await redis.stop();
      const { code, ms } = await stopTimed(worker.child);
      expect({ code, withinBound: ms < TIMEOUT_MS + SCHEDULING_SLACK_MS }).toEqual({
        code: 0,
        withinBound: true,
      });
    } finally {
      worker.child.kill('SIGKILL');
    }
  });

  it('the api exits by its deadline, saying so, when PostgreSQL stops answering', async () => {
    const target = new URL(TEST_DATABASE_URL);
    const proxy = await FreezableProxy.start(target);
    const viaProxy = new URL(TEST_DATABASE_URL);
    viaProxy.port = String(proxy.port);
    const api = await spawnApi({
      ...bounds,
      REDIS_URL: redis.url,
      DATABASE_URL: viaProxy.toString(),
      LOG_LEVEL: 'silent',
    });
    try {
      expect((await fetch(`${api.url}/health/ready`)).status).toBe(200);
      proxy.freeze();
      const { code, ms } = await stopTimed(api.child);
      expect(ms).toBeLessThan(GRACE_MS + TIMEOUT_MS + SCHEDULING_SLACK_MS);
      if (code !== 0) {
        expect(code).toBe(1);
        expect(api.output.join('')).toContain(
          `Shutdown did not finish within ${GRACE_MS + TIMEOUT_MS} ms`,
        );
      }
    } finally {
      api.child.kill('SIGKILL');
      await proxy.close();
    }
  });
});
