import {
  context,
  isSpanContextValid,
  propagation,
  Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { ERROR_CODE_ATTRIBUTE } from '../../http/request-span';
import { serverSpans } from './server-spans';
import { traceOf, unsampledContext, unsampledTraceOf } from './trace-context';
import type { OwnSpanKind, TracingHooks } from './tracing-state';

const KINDS: Record<OwnSpanKind, SpanKind> = {
  internal: SpanKind.INTERNAL,
  client: SpanKind.CLIENT,
  producer: SpanKind.PRODUCER,
  consumer: SpanKind.CONSUMER,
};

/**
 * The error's code when it has one (DomainError and its kin), else its class name: what a
 * span may say about a failure. Never the message, which may quote a provider's answer.
 */
export function errorCodeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.length > 0) return code;
  return error instanceof Error ? error.name : 'error';
}

function isPromiseLike(value: unknown): value is Promise<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** The hooks the platform calls when tracing runs (see TracingHooks), on our own tracer. */
export function createTracingHooks(): TracingHooks {
  const tracer = trace.getTracer('gpu-marketplace');
  const failed = (span: Span, error: unknown) => {
    span.setStatus({ code: SpanStatusCode.ERROR });
    span.setAttribute(ERROR_CODE_ATTRIBUTE, errorCodeOf(error));
  };
  return {
    requestSpan: serverSpans(tracer),

    logFields(): Record<string, string> {
      const spanContext = traceOf(context.active());
      if (!spanContext || !isSpanContextValid(spanContext)) return {};
      return {
        trace_id: spanContext.traceId,
        span_id: spanContext.spanId,
        trace_flags: `0${spanContext.traceFlags.toString(16)}`,
      };
    },

    inSpan(name, kind, attributes, work, parent) {
      const parentContext = parent
        ? propagation.extract(context.active(), parent)
        : context.active();
      const parentTrace = unsampledTraceOf(parentContext);
      if (parentTrace) {
        const headers: Record<string, string> = {};
        propagation.inject(trace.setSpanContext(parentContext, parentTrace), headers);
        return context.with(unsampledContext(parentContext, parentTrace), () => work(headers));
      }
      return tracer.startActiveSpan(
        name,
        { kind: KINDS[kind], attributes },
        parentContext,
        async (span) => {
          try {
            const headers: Record<string, string> = {};
            propagation.inject(context.active(), headers);
            return await work(headers);
          } catch (error) {
            failed(span, error);
            throw error;
          } finally {
            span.end();
          }
        },
      );
    },

    around(name, attributes, work) {
      if (unsampledTraceOf(context.active())) return work();
      return tracer.startActiveSpan(name, { attributes }, (span) => {
        let result;
        try {
          result = work();
        } catch (error) {
          failed(span, error);
          span.end();
          throw error;
        }
        if (!isPromiseLike(result)) {
          span.end();
          return result;
        }
        return result.then(
          (value: unknown) => {
            span.end();
            return value;
          },
          (error: unknown) => {
            failed(span, error);
            span.end();
            throw error;
          },
        ) as typeof result;
      });
    },
  };
}
