import type { Express } from 'express';
import type { IncomingMessage, Server } from 'node:http';
import proxyAddr from 'proxy-addr';
import { tracingHooks, tracingSettingsInUse } from '../infrastructure/observability/tracing-state';

/** The W3C headers by which a caller hands its trace (and baggage) on. */
const TRACE_CONTEXT_HEADERS = ['traceparent', 'tracestate', 'baggage'];

/**
 * When tracing runs, the api's first middleware: each request's server span is kept on the
 * request (for annotateRequestSpan) and its trace id answered in `X-Trace-Id`, so a user
 * can quote it. Without tracing nothing is installed.
 */
export function traceRequests(app: Express): void {
  const hooks = tracingHooks();
  if (hooks) app.use(hooks.requestSpan);
}

/**
 * A caller's `traceparent` is followed only when the connection comes from a trusted proxy
 * (TRUSTED_PROXIES, loopback by default): from anyone else the trace-context headers are
 * dropped before the server span (server-spans.ts) reads them, and the request starts a
 * trace of its own. An outsider can then neither choose our trace ids nor force its requests to
 * be sampled.
 */
export function followTraceContextOfTrustedProxies(server: Server): void {
  const settings = tracingSettingsInUse();
  if (!settings) return;
  const trusted = proxyAddr.compile(settings.trustedProxies);
  const emit = server.emit;
  server.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'request') {
      const request = args[0] as IncomingMessage;
      const address = request.socket.remoteAddress;
      if (address === undefined || !trusted(address, 0))
        for (const header of TRACE_CONTEXT_HEADERS) delete request.headers[header];
    }
    return Reflect.apply(emit, this, [event, ...args]) as boolean;
  } as Server['emit'];
}
