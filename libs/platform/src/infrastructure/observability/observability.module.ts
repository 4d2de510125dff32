import { DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import { Metrics } from '../../application/ports/metrics.port';
import { PlatformConfig } from '../../config/platform-config';
import { QueueRegistry } from '../queue/queue-registry';
import { PrometheusMetrics } from './prometheus-metrics';
import { tracingActive, tracingHooks } from './tracing-state';
import { UseCaseSpans } from './use-case-spans';

/** Header names whose values never reach a log line. */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-session-key"]',
  'res.headers["set-cookie"]',
  'res.headers["x-session-key"]',
];

/**
 * One line an event on a terminal: time, level, [context] message, then the fields;
 * colours when the terminal has them. A request is one short line of its own
 * (`GET /api/v0/users/current/ 200 3 ms`, see PRETTY_REQUEST_LINES): the structured
 * request and response fields, headers included, are for JSON logs and stay out of it.
 * A line written inside a traced request or job ends with its trace_id and span_id (the
 * logger's mixin puts them in the record; JSON lines carry them as fields).
 */
export const PRETTY_TRANSPORT = {
  target: 'pino-pretty',
  options: {
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,context,req,res,responseTime,trace_id,span_id,trace_flags',
    messageFormat:
      '{if context}[{context}] {end}{msg}{if trace_id} trace_id={trace_id} span_id={span_id}{end}',
  },
};

type RequestLike = { method?: string; url?: string; originalUrl?: string };

/** `GET /path` of a request, without its query string (as the JSON serializer logs it). */
function requestLine(request: RequestLike): string {
  return `${request.method} ${(request.originalUrl ?? request.url ?? '').split('?')[0]}`;
}

/** The message of each request's line in pretty mode: method, path, status, time. */
const PRETTY_REQUEST_LINES = {
  customSuccessMessage: (request: RequestLike, response: { statusCode: number }, ms: number) =>
    `${requestLine(request)} ${response.statusCode} ${Math.round(ms)} ms`,
  customErrorMessage: (request: RequestLike, response: { statusCode: number }, error: Error) =>
    `${requestLine(request)} ${response.statusCode} failed: ${error.message}`,
};

/**
 * Logs (pino, one JSON line per event, secrets redacted, a request id on every request)
 * and the Prometheus metrics (the api's bootstrap installs timeRequests, which feeds them).
 */
@Module({})
export class ObservabilityModule {
  static forRoot(config: PlatformConfig): DynamicModule {
    const tracing = tracingHooks();
    return {
      global: true,
      module: ObservabilityModule,
      imports: [
        ...(tracingActive() ? [DiscoveryModule] : []),
        LoggerModule.forRoot({
          pinoHttp: {
            level: config.logLevel,
            ...(config.logFormat === 'pretty'
              ? { transport: PRETTY_TRANSPORT, ...PRETTY_REQUEST_LINES }
              : {}),
            redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
            // With tracing, every line written inside a trace carries its ids.
            ...(tracing ? { mixin: () => tracing.logFields() } : {}),
            genReqId: (request, response) => {
              const given = request.headers['x-request-id'];
              const id =
                typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
              response.setHeader('X-Request-Id', id);
              return id;
            },
            serializers: {
              // Paths only: query strings are not needed to trace a request.
              req: (request: { id: string; method: string; url: string }) => ({
                id: request.id,
                method: request.method,
                path: request.url.split('?')[0],
              }),
            },
            autoLogging: { ignore: (request) => (request.url ?? '').startsWith('/health') },
          },
        }),
      ],
      providers: [
        {
          provide: PrometheusMetrics,
          inject: [QueueRegistry],
          useFactory: (queues: QueueRegistry) => new PrometheusMetrics(queues),
        },
        { provide: Metrics, useExisting: PrometheusMetrics },
        ...(tracingActive() ? [UseCaseSpans] : []),
      ],
      exports: [Metrics, PrometheusMetrics],
    };
  }
}
