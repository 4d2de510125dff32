import { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';
import { readFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { Socket } from 'node:net';
import { HttpServerLimits } from '@app/platform';

/**
 * The HTTP server with bounds on what one client can hold open (README "Configuration"):
 *  - headers must arrive within HTTP_HEADERS_TIMEOUT_MS and the whole request within
 *    HTTP_REQUEST_TIMEOUT_MS, however slowly it trickles (Node answers 408 and closes);
 *  - an idle keep-alive connection closes after HTTP_KEEP_ALIVE_TIMEOUT_MS;
 *  - at most HTTP_MAX_CONNECTIONS_PER_ADDRESS open connections per client address and
 *    HTTP_MAX_CONNECTIONS in total: past either, a new connection is answered 429 or 503
 *    and closed at once, so one client cannot take the file descriptors every other client
 *    and the database pool need.
 */
export class LimitedExpressAdapter extends ExpressAdapter {
  constructor(
    instance: Express,
    private readonly limits: HttpServerLimits,
  ) {
    super(instance);
  }

  override initHttpServer(options: NestApplicationOptions): void {
    if (options?.httpsOptions) return super.initHttpServer(options);
    const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = this.limits;
    const server = createServer(
      {
        headersTimeout: headersTimeoutMs,
        requestTimeout: requestTimeoutMs,
        keepAliveTimeout: keepAliveTimeoutMs,
        // Node enforces the two timeouts on this sweep (30 s by default): check often enough
        // that a slow client is cut close to its bound, not up to 30 s later.
        connectionsCheckingInterval: Math.max(250, Math.min(1_000, headersTimeoutMs / 4)),
      },
      this.getInstance(),
    );
    server.keepAliveTimeout = keepAliveTimeoutMs;
    limitConnections(
      server,
      effectiveMaxConnections(this.limits),
      this.limits.maxConnectionsPerAddress,
    );
    this.httpServer = server;
  }
}

/** HTTP_MAX_CONNECTIONS, or by default 80% of the process's open-file limit (at most 10,000). */
export function effectiveMaxConnections(limits: HttpServerLimits): number {
  if (limits.maxConnections > 0) return limits.maxConnections;
  const soft = openFileLimit();
  return soft === null ? 10_000 : Math.max(64, Math.min(10_000, Math.floor(soft * 0.8)));
}

function openFileLimit(): number | null {
  try {
    const match = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** The api's usual bodies: `{detail}` for a 429, the error envelope for a 503. */
function refusal(status: 429 | 503, message: string): string {
  const body = JSON.stringify(
    status === 429
      ? { detail: message }
      : { success: false, error: 'service_unavailable', msg: message },
  );
  const reason = status === 429 ? 'Too Many Requests' : 'Service Unavailable';
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nRetry-After: 1\r\n` +
    `Connection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

/** How long a refused connection may stay half-closed before it is cut. */
const REFUSED_LINGER_MS = 1_000;

const PER_ADDRESS_REFUSAL = refusal(429, 'Too many open connections from this address.');
const TOTAL_REFUSAL = refusal(503, 'The server has too many open connections; retry shortly.');

function limitConnections(server: Server, total: number, perAddress: number): void {
  const open = new Map<string, number>();
  let count = 0;
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const fromAddress = open.get(address) ?? 0;
    const refused =
      count >= total
        ? TOTAL_REFUSAL
        : perAddress > 0 && fromAddress >= perAddress
          ? PER_ADDRESS_REFUSAL
          : null;
    if (refused) {
      // Answered without waiting for the request. Ended with a FIN, not destroyed: closing a
      // socket that still has unread request bytes makes the kernel reset the connection,
      // and a busy client can lose the answer to the reset. A client that keeps its side
      // open anyway is cut after a second.
      socket.end(refused);
      setTimeout(() => socket.destroy(), REFUSED_LINGER_MS).unref();
      return;
    }
    count += 1;
    open.set(address, fromAddress + 1);
    socket.once('close', () => {
      count -= 1;
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
