import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Lifecycle, PlatformConfig } from '@app/platform';

/**
 * The HTTP half of a graceful shutdown, before Nest closes the server:
 *  1. readiness reports "draining" the moment the signal arrives;
 *  2. on SIGTERM (what orchestrators send) the server keeps accepting for SHUTDOWN_GRACE_MS,
 *     because load balancers keep routing to an instance for a moment after it is told to
 *     stop; closing the listener at once resets the connections already on their way;
 *  3. every response sent from then on carries `Connection: close`, so a keep-alive
 *     connection ends with its last answer instead of holding the shutdown open until the
 *     keep-alive timeout, and clients reconnect to another instance.
 * Nest then stops accepting and waits for the in-flight requests; later hooks stop the
 * worker (running jobs finish) and close the queues, Redis and the database.
 */
@Injectable()
export class DrainOnShutdown implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly pending = new Set<ServerResponse>();

  constructor(
    private readonly lifecycle: Lifecycle,
    private readonly config: PlatformConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    // Before the framework's own listener, so the header is set before any handler answers.
    server?.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
      if (this.lifecycle.draining) return closeConnectionAfter(response);
      this.pending.add(response);
      response.once('close', () => this.pending.delete(response));
    });
  }

  async beforeApplicationShutdown(signal?: string): Promise<void> {
    this.lifecycle.draining = true;
    for (const response of this.pending) closeConnectionAfter(response);
    this.pending.clear();
    // SIGINT is a person at a terminal: no load balancer to wait for.
    if (signal === 'SIGTERM' && this.config.shutdownGraceMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, this.config.shutdownGraceMs));
    }
  }
}

/** A response whose headers are already out (none of ours stream) keeps its connection. */
function closeConnectionAfter(response: ServerResponse): void {
  if (!response.headersSent) response.setHeader('Connection', 'close');
}
