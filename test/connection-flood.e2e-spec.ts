import { request } from 'node:http';
import { connect, Socket } from 'node:net';
import { runManage, spawnApi, SpawnedProcess } from '@test/support/api';

/**
 * One client holds thousands of slow, never-finished requests (one header line at a time)
 * from 127.0.0.1; another client on 127.0.0.2 must keep getting answers. The socket count
 * (3,000) fits this machine's open-file limit with room to spare; the bounds are the
 * api's HTTP_* settings (README "Configuration").
 */
const ATTACK_SOCKETS = 3_000;
const PER_ADDRESS = 200;

interface Attacker {
  socket: Socket;
  closed: boolean;
  received: string;
}

describe('connection floods', () => {
  let api: SpawnedProcess;
  let apiKey: string;
  const attackers: Attacker[] = [];
  let trickle: NodeJS.Timeout | undefined;

  beforeAll(async () => {
    api = await spawnApi({
      HTTP_MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS),
      // Long enough that the held connections outlast the refusals and the other client's
      // requests on a loaded machine; the last step waits for it to cut them.
      HTTP_HEADERS_TIMEOUT_MS: '15000',
      HTTP_REQUEST_TIMEOUT_MS: '20000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000',
      SHUTDOWN_GRACE_MS: '0',
      // No delivery worker: this file must not take other files' jobs.
      RUN_WORKER: 'false',
    });
    const created = await runManage([
      'user:create',
      '--email',
      `flood-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`,
      '--verified',
    ]);
    expect(created.code).toBe(0);
    apiKey = (created.json as { api_key: string }).api_key;
  }, 60_000);

  afterAll(async () => {
    if (trickle) clearInterval(trickle);
    for (const attacker of attackers) attacker.socket.destroy();
    await api?.stop();
  });

  /** A request from 127.0.0.2, a different client address than the attacker's. */
  function fromOtherClient(
    path: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = request(
        `${api.url}${path}`,
        { localAddress: '127.0.0.2', headers, agent: false },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  /** Resolves once `condition` holds, re-checked whenever an attacker socket changes. */
  function until(condition: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!condition()) return;
        for (const attacker of attackers) attacker.socket.off('close', check);
        resolve();
      };
      for (const attacker of attackers) attacker.socket.on('close', check);
      check();
    });
  }

  const closedCount = () => attackers.filter((attacker) => attacker.closed).length;

  it('caps one address, keeps answering another client, and cuts slow headers at their bound', async () => {
    for (let i = 0; i < ATTACK_SOCKETS; i++) {
      const socket = connect({ host: '127.0.0.1', port: api.port });
      const attacker: Attacker = { socket, closed: false, received: '' };
      socket.on('data', (chunk: Buffer) => (attacker.received += chunk.toString()));
      socket.on('error', () => undefined);
      socket.on('close', () => (attacker.closed = true));
      socket.write('GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      attackers.push(attacker);
    }
    // One more header line every half second: the request never completes.
    trickle = setInterval(() => {
      for (const attacker of attackers)
        if (!attacker.closed) attacker.socket.write('X-Slow: 1\r\n');
    }, 500);

    // Everything past the per-address cap is refused at once with the usual 429 body.
    await until(() => closedCount() >= ATTACK_SOCKETS - PER_ADDRESS);
    const refused = attackers.filter((attacker) => attacker.closed);
    expect(refused.length).toBeGreaterThanOrEqual(ATTACK_SOCKETS - PER_ADDRESS);
    expect(refused.some((a) => a.received.startsWith('HTTP/1.1 429 Too Many Requests'))).toBe(true);
    expect(
      refused.filter((a) => a.received !== '').every((a) => a.received.includes('"detail"')),
    ).toBe(true);

    // The held connections do not stop another client.
    const held = attackers.filter((attacker) => !attacker.closed).length;
    expect(held).toBeGreaterThan(0);
    const live = await fromOtherClient('/health/live');
    expect(live.status).toBe(200);
    const me = await fromOtherClient('/api/v0/users/current/', {
      Authorization: `Bearer ${apiKey}`,
    });
    expect(me.status).toBe(200);
    expect(attackers.filter((attacker) => !attacker.closed).length).toBeGreaterThan(0);

    // However slowly the header lines come, HTTP_HEADERS_TIMEOUT_MS ends every request.
    await until(() => closedCount() === ATTACK_SOCKETS);
    const timedOut = attackers.filter((a) => a.received.startsWith('HTTP/1.1 408'));
    expect(timedOut.length).toBeGreaterThan(0);
    expect((await fromOtherClient('/health/live')).status).toBe(200);
  }, 120_000);

  it('closes an idle keep-alive connection after HTTP_KEEP_ALIVE_TIMEOUT_MS', async () => {
    const socket = connect({ host: '127.0.0.1', port: api.port, localAddress: '127.0.0.2' });
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write('GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(received).toMatch(/Keep-Alive: timeout=1/i);
  });
});
