import {
  BeforeApplicationShutdown,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  ServiceUnavailableException,
} from '@nestjs/common';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { Lifecycle } from '../infrastructure/lifecycle';
import { PrometheusMetrics } from '../infrastructure/observability/prometheus-metrics';
import { listenFailure } from '../infrastructure/startup-checks';
import { Readiness } from './readiness';

/** Which process serves: the api (metrics only) or the worker (metrics and its probes). */
export type MetricsRole = 'api' | 'worker';

const EXPOSITION_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * GET /metrics on a listener of its own (METRICS_HOST:METRICS_PORT, loopback unless set),
 * never on the api's public port: the counters tell brute-force activity (2FA failures,
 * lockouts) to whoever can read them. The worker, which has no other listener, also serves
 * its probes here: GET /health/live and GET /health/ready. Anything else is 404 in the
 * error envelope.
 */
export class MetricsListener
  implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  private server: Server | null = null;
  /** The address and port actually bound (METRICS_PORT=0 asks the system for a free one). */
  address: string | null = null;
  port: number | null = null;

  constructor(
    private readonly metrics: PrometheusMetrics,
    private readonly lifecycle: Lifecycle,
    private readonly role: MetricsRole,
    private readonly host: string,
    private readonly requestedPort: number,
    private readonly readiness: Readiness | null,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const server = createServer((request, response) => {
      this.serve(request, response).catch(() => {
        if (!response.headersSent)
          send(response, 500, envelope('internal_error', 'Internal server error'));
      });
    });
    // A scrape is one short request: nothing may hold this listener open on shutdown.
    server.keepAliveTimeout = 1_000;
    server.headersTimeout = 5_000;
    server.requestTimeout = 10_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          listenFailure(error, this.host, this.requestedPort, {
            port: 'METRICS_PORT',
            host: 'METRICS_HOST',
          }),
        ),
      );
      server.listen({ host: this.host, port: this.requestedPort }, () => resolve());
    });
    const address = server.address();
    this.port = typeof address === 'object' && address ? address.port : this.requestedPort;
    this.address = typeof address === 'object' && address ? address.address : this.host;
    this.server = server;
  }

  /** A worker's readiness turns to draining when its shutdown starts (the api's: DrainOnShutdown). */
  beforeApplicationShutdown(): void {
    if (this.role === 'worker') this.lifecycle.draining = true;
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '/').split('?')[0].replace(/\/+$/, '') || '/';
    if (request.method === 'GET' && path === '/metrics') {
      response.setHeader('Content-Type', EXPOSITION_TYPE);
      response.end(await this.metrics.registry.metrics());
      return;
    }
    if (request.method === 'GET' && this.readiness && path === '/health/live') {
      return send(response, 200, { status: 'ok', info: {}, error: {}, details: {} });
    }
    if (request.method === 'GET' && this.readiness && path === '/health/ready') {
      try {
        return send(response, 200, await this.readiness.check({ replica: false }));
      } catch (error) {
        if (error instanceof ServiceUnavailableException)
          return send(response, 503, error.getResponse() as object);
        throw error;
      }
    }
    send(response, 404, envelope('not_found', `No route for ${request.method} ${path}`));
  }
}

function envelope(error: string, msg: string): object {
  return { success: false, error, msg };
}

function send(response: ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  response.end(text);
}
