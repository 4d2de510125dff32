import { readTracingSettings } from './infrastructure/observability/tracing-settings';
import { tracingStarted } from './infrastructure/observability/tracing-state';

/**
 * The tracing preload: the first import of each entry point (apps/api and apps/worker
 * `src/tracing.ts`), so that the OpenTelemetry SDK patches http, express, Nest, pg, ioredis
 * and pino before anything loads them. It is the platform's second public entry point, and
 * imports nothing else of the platform.
 *
 * With no exporter configured (OTEL_TRACES_EXPORTER unset or `none` and no
 * OTEL_EXPORTER_OTLP_ENDPOINT) the SDK is not loaded at all. A mistake in the OTEL_*
 * settings stops the start with one line naming the variable.
 */
export function startTracing(
  defaultServiceName: string,
  env: NodeJS.ProcessEnv = process.env,
): void {
  let settings;
  try {
    settings = readTracingSettings(env);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
  if (!settings) return;
  // Loaded only here: a process without tracing never reads the SDK from disk.
  type TracingSdk = typeof import('./infrastructure/observability/tracing-sdk');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk = require('./infrastructure/observability/tracing-sdk') as TracingSdk;
  tracingStarted(sdk.startTracingSdk(settings, defaultServiceName, env));
}

export { shutdownTracing, tracingActive } from './infrastructure/observability/tracing-state';
