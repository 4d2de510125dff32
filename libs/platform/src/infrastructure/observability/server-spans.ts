import {
  Attributes,
  context,
  propagation,
  ROOT_CONTEXT,
  Span,
  SpanKind,
  SpanStatusCode,
  trace,
  Tracer,
} from '@opentelemetry/api';
import type { NextFunction, Request, Response } from 'express';
import { TLSSocket } from 'node:tls';
import { REQUEST_SPAN } from '../../http/request-span';
import { unsampledContext } from './trace-context';

/** Probes and scrapes (every few seconds, from the orchestrator and Prometheus): no traces. */
const UNTRACED_PATHS = /^\/(health|metrics)(\/|\?|$)/;

/** The template of the route that handled the request ('/api/v0/endptjobs/:id'), if one did. */
function routeTemplateOf(request: Request): string | undefined {
  const path = (request.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? request.baseUrl + path : undefined;
}

/**
 * The stable HTTP conventions' request attributes, without the query string (it may hold
 * an API key: old clients sent `?api_key=`). Read only for a span that is recorded.
 */
function requestAttributes(request: Request): Attributes {
  const url = request.originalUrl;
  const query = url.indexOf('?');
  const host = request.headers.host ?? '';
  // A port follows the last colon, unless that colon is inside an IPv6 address's brackets.
  const colon = host.lastIndexOf(':');
  const hasPort = colon > host.lastIndexOf(']');
  const attributes: Attributes = {
    'url.scheme': request.socket instanceof TLSSocket ? 'https' : 'http',
    'url.path': query === -1 ? url : url.slice(0, query),
    'server.address': hasPort ? host.slice(0, colon) : host,
    'network.protocol.version': request.httpVersion,
    'network.peer.address': request.socket.remoteAddress,
    'client.address': request.ip,
  };
  if (hasPort) attributes['server.port'] = Number(host.slice(colon + 1));
  const agent = request.headers['user-agent'];
  if (agent) attributes['user_agent.original'] = agent;
  return attributes;
}

/** Status, route template and name once the response is over, then the end of the span. */
function endServerSpan(span: Span, request: Request, response: Response): void {
  const status = response.statusCode;
  span.setAttribute('http.response.status_code', status);
  // A server span is an error only when the server failed (5xx), not the client.
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  const route = routeTemplateOf(request);
  if (route) {
    span.setAttribute('http.route', route);
    span.updateName(`${request.method} ${route}`);
  }
  span.end();
}

/**
 * The api's first middleware when tracing runs: one SERVER span per request (probes and
 * /metrics left out), child of the caller's W3C context when a trusted proxy passed one
 * (request-tracing.ts drops it from anyone else), named `METHOD /route/template` once
 * routing is done. The trace id is answered in `X-Trace-Id`, sampled or not.
 *
 * It stands in for the http instrumentation's server side, which binds the request's and
 * the response's event emitters to the trace context: every listener any middleware adds
 * is then wrapped, and the objects change shape: most of what tracing cost a request that
 * was not sampled (docs/performance.md "Tracing").
 * Nothing needs that binding: the JSON body parser calls back in the context it was
 * called in (raw-body binds its callback), so a body that arrives after the headers keeps
 * the request's trace, and the span is ended from its own listener.
 */
export function serverSpans(
  tracer: Tracer,
): (request: Request, response: Response, next: NextFunction) => void {
  return (request, response, next) => {
    if (UNTRACED_PATHS.test(request.url)) return next();
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const span = tracer.startSpan(
      request.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method } },
      parent,
    );
    const spanContext = span.spanContext();
    response.setHeader('X-Trace-Id', spanContext.traceId);
    if (!span.isRecording()) {
      span.end();
      return context.with(unsampledContext(parent, spanContext), next);
    }
    span.setAttributes(requestAttributes(request));
    (request as unknown as { [REQUEST_SPAN]?: Span })[REQUEST_SPAN] = span;
    response.once('close', () => endServerSpan(span, request, response));
    context.with(trace.setSpan(parent, span), next);
  };
}
