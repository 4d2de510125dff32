import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/** One request a receiver got: its headers and raw body, as a receiver sees them. */
export interface ReceivedWebhook {
  path: string;
  headers: IncomingMessage['headers'];
  rawBody: string;
}

/**
 * What the receiver does with a request to a path: answer a status, or hang (never
 * answer, until the receiver closes).
 */
export type ReceiverBehaviour = (received: ReceivedWebhook, count: number) => number | 'hang';

/**
 * A webhook receiver on loopback (node:http), as an owner would run one: records every
 * request, and answers each path as its behaviour says (204 unless told).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly behaviours = new Map<string, ReceiverBehaviour>();
  private readonly hanging = new Set<ServerResponse>();
  private server!: Server;

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    receiver.server = createServer((req, res) => receiver.handle(req, res));
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  on(path: string, behaviour: ReceiverBehaviour): void {
    this.behaviours.set(path, behaviour);
  }

  at(path: string): ReceivedWebhook[] {
    return this.received.filter((request) => request.path === path);
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received = {
        path: req.url ?? '',
        headers: req.headers,
        rawBody: Buffer.concat(chunks).toString('utf8'),
      };
      this.received.push(received);
      const behaviour = this.behaviours.get(received.path) ?? (() => 204);
      const outcome = behaviour(received, this.at(received.path).length);
      if (outcome === 'hang') {
        this.hanging.add(res);
        return;
      }
      res.writeHead(outcome, { 'Content-Type': 'text/plain' }).end('ok');
    });
  }
}

/**
 * The verification recipe of docs/spend-guards.md "Verifying a delivery", as written there
 * for Node: the signature over "<timestamp>.<raw body>" compared in constant time, and a
 * timestamp older than five minutes refused.
 */
export function verifyGpumktWebhook(
  secret: string,
  headers: IncomingMessage['headers'],
  rawBody: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const timestamp = String(headers['gpumkt-webhook-timestamp'] ?? '');
  const signature = String(headers['gpumkt-webhook-signature'] ?? '');
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > 300) return false;
  const expected = `v1=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
  const a = Buffer.from(signature);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
