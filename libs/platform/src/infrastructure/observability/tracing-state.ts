import type { Attributes } from '@opentelemetry/api';
import type { NextFunction, Request, Response } from 'express';
import type { TracingSettings } from './tracing-settings';

/** The kinds of span the platform opens itself (instrumentations open the others). */
export type OwnSpanKind = 'internal' | 'client' | 'producer' | 'consumer';

/**
 * What the code outside the SDK calls when tracing runs. The implementation
 * (tracing-hooks.ts) is loaded with the SDK; a process without tracing never loads it, and
 * its callers run their plain path instead.
 */
export interface TracingHooks {
  /**
   * Express middleware, first of all: makes the request's server span (server-spans.ts),
   * keeps it on the request (for annotateRequestSpan) and answers its trace id in
   * `X-Trace-Id`.
   */
  requestSpan(request: Request, response: Response, next: NextFunction): void;
  /**
   * The active trace's ids for a log line (`trace_id`, `span_id`, `trace_flags`, as the
   * OpenTelemetry log conventions name them), sampled or not; nothing outside a trace.
   */
  logFields(): Record<string, string>;
  /**
   * Runs `work` in a new span, child of the active one, or of the W3C context in `parent`
   * (a job's); in a trace that is not sampled, in no span, handing the trace on unsampled.
   * `work` receives the headers that carry this span's context to a provider.
   * A failure marks the span as an error with the error's `code`, never its message.
   */
  inSpan<T>(
    name: string,
    kind: OwnSpanKind,
    attributes: Attributes,
    work: (traceHeaders: Record<string, string>) => Promise<T>,
    parent?: Record<string, string>,
  ): Promise<T>;
  /**
   * Runs `work` in an internal span that ends when its result settles (or at once when the
   * result is not a promise), and returns that result as it is; in a trace that is not
   * sampled, `work` alone.
   */
  around<T>(name: string, attributes: Attributes, work: () => T): T;
}

/** What the preload started: its settings, the hooks, and how to flush and stop it. */
export interface RunningTracing {
  settings: TracingSettings;
  hooks: TracingHooks;
  shutdown(): Promise<void>;
}

let running: RunningTracing | null = null;

/**
 * True when this process started the OpenTelemetry SDK (the preload found an exporter
 * configured). Everything tracing adds is installed only then, so a process without
 * tracing runs the code it ran before tracing existed.
 */
export function tracingActive(): boolean {
  return running !== null;
}

/** The hooks of the running SDK, or null when this process does not trace. */
export function tracingHooks(): TracingHooks | null {
  return running?.hooks ?? null;
}

export function tracingSettingsInUse(): TracingSettings | null {
  return running?.settings ?? null;
}

export function tracingStarted(tracing: RunningTracing): void {
  running = tracing;
}

/**
 * Exports the spans still buffered and stops the SDK, within `timeoutMs` (a collector that
 * does not answer must not hold the exit). Called once the application has closed.
 */
export async function shutdownTracing(timeoutMs = 5_000): Promise<void> {
  const current = running;
  if (!current) return;
  running = null;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    current.shutdown().catch(() => undefined),
    new Promise((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
}

/**
 * Runs a call to an outside provider (an SMS or email API) in a client span when tracing
 * runs; `call` receives the W3C trace-context headers to send with it (none otherwise).
 */
export function tracedProviderCall<T>(
  name: string,
  attributes: Attributes,
  call: (traceHeaders: Record<string, string>) => Promise<T>,
): Promise<T> {
  const hooks = running?.hooks;
  return hooks ? hooks.inSpan(name, 'client', attributes, call) : call({});
}
