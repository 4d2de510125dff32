import { NodeSDK, resources } from '@opentelemetry/sdk-node';
import { ConsoleSpanExporter, SpanExporter } from '@opentelemetry/sdk-trace';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { RedactingSpanExporter } from './redacting-span-exporter';
import { createTracingHooks } from './tracing-hooks';
import type { TracingSettings } from './tracing-settings';
import type { RunningTracing } from './tracing-state';

function exporterFor(settings: TracingSettings): SpanExporter {
  if (settings.exporter === 'console') return new ConsoleSpanExporter();
  // Both read OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT, _HEADERS, _TIMEOUT and _COMPRESSION.
  return settings.protocol === 'http/json' ? new OtlpJsonExporter() : new OtlpProtobufExporter();
}

/** OTEL_SERVICE_NAME, or service.name in OTEL_RESOURCE_ATTRIBUTES, wins over our default. */
function serviceNamed(env: NodeJS.ProcessEnv): boolean {
  return (
    Boolean(env.OTEL_SERVICE_NAME?.trim()) ||
    /(^|,)\s*service\.name\s*=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? '')
  );
}

/**
 * Starts the OpenTelemetry Node SDK: traces only (no OpenTelemetry metrics or logs: those
 * are Prometheus and pino), sampled as OTEL_TRACES_SAMPLER says (parent-based always-on by
 * default), exported in batches (OTEL_BSP_*) through the redacting exporter.
 *
 * - http: outgoing calls. The server span of each request is made by our first middleware
 *   (server-spans.ts), named by its route template. No express or nestjs-core
 *   instrumentation: they wrap every layer and add two spans per request that repeat the
 *   server span and the use case's (docs/performance.md "Tracing").
 * - pg: each statement, its text only (placeholders, never the values); ioredis: each
 *   command, by name only (keys and values may hold fingerprints, counters or
 *   destinations). Both only inside a sampled trace (an unsampled one runs with no span in
 *   its context, tracing-hooks.ts), so a worker polling its queue makes no trace of its own.
 *
 * Log lines get trace_id and span_id from the logger's mixin (ObservabilityModule), not
 * from a pino instrumentation: it would miss the unsampled traces.
 */
export function startTracingSdk(
  settings: TracingSettings,
  defaultServiceName: string,
  env: NodeJS.ProcessEnv,
): RunningTracing {
  // The stable HTTP and database conventions (http.route, http.response.status_code,
  // url.path, db.query.text, db.system.name), unless the operator chose otherwise.
  env.OTEL_SEMCONV_STABILITY_OPT_IN ??= 'http,database';
  const sdk = new NodeSDK({
    traceExporter: new RedactingSpanExporter(exporterFor(settings)),
    metricReaders: [],
    logRecordProcessors: [],
    // Service name and OTEL_RESOURCE_ATTRIBUTES, and the host. Not the process detector: it
    // exports the command line, which is nobody's business outside the host.
    resourceDetectors: [resources.envDetector, resources.hostDetector],
    ...(serviceNamed(env) ? {} : { serviceName: defaultServiceName }),
    instrumentations: [
      // Outgoing calls only (a webhook's delivery): the server spans are ours (server-spans.ts).
      new HttpInstrumentation({
        disableIncomingRequestInstrumentation: true,
        requireParentforOutgoingSpans: true,
      }),
      new PgInstrumentation({
        requireParentSpan: true,
        enhancedDatabaseReporting: false,
        // A span per checkout would double the SQL spans (each statement outside a
        // transaction checks a connection out); pool waits are in db_pool_wait_seconds.
        ignoreConnectSpans: true,
      }),
      new IORedisInstrumentation({
        requireParentSpan: true,
        dbStatementSerializer: (command) => command,
      }),
    ],
  });
  sdk.start();
  return { settings, hooks: createTracingHooks(), shutdown: () => sdk.shutdown() };
}
