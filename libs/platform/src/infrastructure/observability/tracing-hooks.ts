import {
  Context,
  context,
  createContextKey,
  isSpanContextValid,
  propagation,
  Span,
  SpanContext,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
} from '@opentelemetry/api';
import { getRPCMetadata, RPCType } from '@opentelemetry/core';
import type { Request } from 'express';
import { ERROR_CODE_ATTRIBUTE, REQUEST_SPAN } from '../../http/request-span';
import type { OwnSpanKind, TracingHooks } from './tracing-state';

const KINDS: Record<OwnSpanKind, SpanKind> = {
  internal: SpanKind.INTERNAL,
  client: SpanKind.CLIENT,
  producer: SpanKind.PRODUCER,
  consumer: SpanKind.CONSUMER,
};

/**
 * Where a trace that is not sampled keeps its context. Its requests and jobs run with no
 * span in their context, so the pg and ioredis instrumentations (which require a parent
 * span) and our own spans make nothing, the bulk of tracing's cost per request; yet their
 * log lines and answers still carry the trace id, and the jobs and providers they call are
 * handed the context with its not-sampled flag, so the trace stays unsampled downstream.
 */
const UNSAMPLED_TRACE = createContextKey('gpu-marketplace unsampled trace');

function unsampledContext(base: Context, spanContext: SpanContext): Context {
  return trace.deleteSpan(base).setValue(UNSAMPLED_TRACE, spanContext);
}

/** The active span's context, or that of the unsampled trace this context belongs to. */
function traceOf(active: Context): SpanContext | undefined {
  return trace.getSpanContext(active) ?? (active.getValue(UNSAMPLED_TRACE) as SpanContext);
}

function sampled(spanContext: SpanContext): boolean {
  return (spanContext.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED;
}

/**
 * The error's code when it has one (DomainError and its kin), else its class name: what a
 * span may say about a failure. Never the message, which may quote a provider's answer.
 */
export function errorCodeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.length > 0) return code;
  return error instanceof Error ? error.name : 'error';
}

/** The template of the route that handled the request ('/api/v0/endptjobs/:id'), if one did. */
function routeTemplateOf(request: Request): string | undefined {
  const path = (request.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? request.baseUrl + path : undefined;
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
    requestSpan(request, response, next) {
      const active = context.active();
      const span = trace.getSpan(active);
      if (!span) return next();
      response.setHeader('X-Trace-Id', span.spanContext().traceId);
      if (!span.isRecording())
        return context.with(unsampledContext(active, span.spanContext()), next);
      (request as unknown as { [REQUEST_SPAN]?: Span })[REQUEST_SPAN] = span;
      // The http instrumentation names the server span and sets http.route from this
      // metadata when the response closes; 'finish' comes first, once routing is done.
      const metadata = getRPCMetadata(active);
      if (metadata?.type === RPCType.HTTP)
        response.once('finish', () => {
          const route = routeTemplateOf(request);
          if (route) metadata.route = route;
        });
      next();
    },

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
      const parentTrace = traceOf(parentContext);
      if (parentTrace && !sampled(parentTrace)) {
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
      const parentTrace = traceOf(context.active());
      if (parentTrace && !sampled(parentTrace)) return work();
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
