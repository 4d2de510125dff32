import { Context, createContextKey, SpanContext, trace, TraceFlags } from '@opentelemetry/api';

/**
 * Where a trace that is not sampled keeps its context. Its requests and jobs run with no
 * span in their context, so the pg and ioredis instrumentations (which require a parent
 * span) and our own spans make nothing for it; yet their log lines and answers still carry the trace id, and the jobs and providers they call are
 * handed the context with its not-sampled flag, so the trace stays unsampled downstream.
 */
const UNSAMPLED_TRACE = createContextKey('gpu-marketplace unsampled trace');

export function unsampledContext(base: Context, spanContext: SpanContext): Context {
  return trace.deleteSpan(base).setValue(UNSAMPLED_TRACE, spanContext);
}

/** The active span's context, or that of the unsampled trace this context belongs to. */
export function traceOf(active: Context): SpanContext | undefined {
  return trace.getSpanContext(active) ?? (active.getValue(UNSAMPLED_TRACE) as SpanContext);
}

function sampled(spanContext: SpanContext): boolean {
  return (spanContext.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED;
}

/** The trace this context belongs to when that trace is not sampled (else undefined). */
export function unsampledTraceOf(active: Context): SpanContext | undefined {
  const spanContext = traceOf(active);
  return spanContext && !sampled(spanContext) ? spanContext : undefined;
}
