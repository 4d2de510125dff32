import { DynamicModule, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import { Metrics } from '../../application/ports/metrics.port';
import { PlatformConfig } from '../../config/platform-config';
import { RequestMetricsMiddleware } from '../../http/request-metrics.middleware';
import { QueueRegistry } from '../queue/queue-registry';
import { PrometheusMetrics } from './prometheus-metrics';

/** Header names whose values never reach a log line. */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-session-key"]',
  'res.headers["set-cookie"]',
  'res.headers["x-session-key"]',
];

/** One line an event on a terminal: time, level, [context] message, then the fields; colours when the terminal has them. */
const PRETTY_TRANSPORT = {
  target: 'pino-pretty',
  options: {
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,context',
    messageFormat: '{if context}[{context}] {end}{msg}',
  },
};

/**
 * Logs (pino, one JSON line per event, secrets redacted, a request id on every request)
 * and the Prometheus metrics with the per-request middleware that feeds them.
 */
@Module({})
export class ObservabilityModule implements NestModule {
  static forRoot(config: PlatformConfig): DynamicModule {
    return {
      global: true,
      module: ObservabilityModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: {
            level: config.logLevel,
            ...(config.logFormat === 'pretty' ? { transport: PRETTY_TRANSPORT } : {}),
            redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
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
      ],
      exports: [Metrics, PrometheusMetrics],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RequestMetricsMiddleware).forRoutes('*');
  }
}
