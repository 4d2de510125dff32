import { createServer, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { testWebhookSettings } from '../../testing/webhooks-kit';
import { HttpWebhookTransport } from './http-webhook.transport';

describe('HttpWebhookTransport (a real loopback receiver)', () => {
  let server: Server;
  let port: number;
  const hanging: ServerResponse[] = [];
  const seen: { headers: Record<string, unknown>; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ headers: req.headers, body });
        if (req.url === '/hang') return void hanging.push(res);
        if (req.url === '/redirect') return void res.writeHead(302, { Location: '/ok' }).end();
        res.writeHead(req.url === '/fail' ? 500 : 200).end('ignored');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  // Long enough for a loaded machine to answer on loopback: only the hanging receiver's
  // test waits out a timeout, and it sets a short one.
  const post = (
    path: string,
    fields: Parameters<typeof testWebhookSettings>[0] = {},
    host = '127.0.0.1',
  ) =>
    new HttpWebhookTransport(testWebhookSettings({ timeoutMs: 10_000, ...fields })).post({
      url: `http://${host}:${port}${path}`,
      headers: { 'Content-Type': 'application/json', 'Gpumkt-Webhook-Id': 'd-1' },
      body: '{"id":"evt_1"}',
    });

  it('posts the body and headers, and answers the status', async () => {
    expect(await post('/ok')).toEqual({ statusCode: 200, error: null });
    expect(seen.at(-1)).toMatchObject({
      body: '{"id":"evt_1"}',
      headers: { 'gpumkt-webhook-id': 'd-1', 'content-length': '14' },
    });
    expect(await post('/fail')).toEqual({ statusCode: 500, error: null });
    expect(await post('/redirect')).toEqual({ statusCode: 302, error: null });
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    const started = Date.now();
    expect(await post('/hang', { timeoutMs: 300 })).toEqual({
      statusCode: null,
      error: 'timed out after 300 ms',
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('says a refused connection without the URL', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await new HttpWebhookTransport(testWebhookSettings()).post({
      url: `http://127.0.0.1:${closedPort}/in?token=secret`,
      headers: {},
      body: '{}',
    });
    expect(result).toEqual({ statusCode: null, error: 'connection refused' });
  });

  it('in production, posts nothing to a host that is or resolves to a loopback address', async () => {
    const before = seen.length;
    const refused = {
      statusCode: null,
      error: 'refused: the host resolves to a non-public address',
    };
    expect(await post('/ok', { production: true })).toEqual(refused);
    expect(await post('/ok', { production: true }, 'localhost')).toEqual(refused);
    expect(seen.length).toBe(before);
  });
});
