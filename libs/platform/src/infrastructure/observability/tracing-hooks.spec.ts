import { context, propagation, Span, trace } from '@opentelemetry/api';
import { getRPCMetadata, RPCMetadata, RPCType, setRPCMetadata } from '@opentelemetry/core';
import { node as sdk } from '@opentelemetry/sdk-node';
import type { Sampler } from '@opentelemetry/sdk-trace';
import type { NextFunction, Request, Response } from 'express';
import { EventEmitter } from 'node:events';
import { createTracingHooks } from './tracing-hooks';

/** Roots are sampled or not as the test says; children follow their parent, as deployed. */
let sampleRoots = true;
const rootSampler: Sampler = {
  shouldSample: () => ({
    decision: sampleRoots
      ? sdk.SamplingDecision.RECORD_AND_SAMPLED
      : sdk.SamplingDecision.NOT_RECORD,
  }),
  toString: () => 'test root sampler',
};
const exporter = new sdk.InMemorySpanExporter();
const provider = new sdk.NodeTracerProvider({
  sampler: new sdk.ParentBasedSampler({ root: rootSampler }),
  spanProcessors: [new sdk.SimpleSpanProcessor(exporter)],
});
provider.register();
const hooks = createTracingHooks();
const tracer = trace.getTracer('test');

afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
});

/** What the request's handlers saw, run as the http instrumentation runs a request. */
interface Handled {
  server: Span;
  metadata: RPCMetadata;
  response: Response & EventEmitter;
  spanInHandler: Span | undefined;
  logFields: Record<string, string>;
  jobHeaders: Record<string, string>;
}

async function handleRequest(request: Partial<Request> = {}): Promise<Handled> {
  exporter.reset();
  const server = tracer.startSpan('GET');
  const metadata: RPCMetadata = { type: RPCType.HTTP, span: server };
  const response = Object.assign(new EventEmitter(), { setHeader: jest.fn() });
  const requestContext = setRPCMetadata(trace.setSpan(context.active(), server), metadata);
  const handled = await context.with(
    requestContext,
    () =>
      new Promise<Omit<Handled, 'server' | 'metadata' | 'response'>>((resolve, reject) => {
        const next: NextFunction = () => {
          const spanInHandler = trace.getSpan(context.active());
          const logFields = hooks.logFields();
          hooks
            .around('SendCodeUseCase', {}, () =>
              hooks.inSpan('send code-delivery', 'producer', {}, async (headers) => headers),
            )
            .then((jobHeaders) => resolve({ spanInHandler, logFields, jobHeaders }), reject);
        };
        hooks.requestSpan(request as Request, response as unknown as Response, next);
      }),
  );
  return { server, metadata, response: response as unknown as Response & EventEmitter, ...handled };
}

describe('tracing hooks', () => {
  describe('a request whose trace is not sampled', () => {
    let handled: Handled;
    beforeAll(async () => {
      sampleRoots = false;
      handled = await handleRequest();
      handled.server.end();
    });

    it('runs its handlers with no span in their context, so the instrumentations make none', () => {
      expect(handled.server.isRecording()).toBe(false);
      expect(handled.spanInHandler).toBeUndefined();
      expect(exporter.getFinishedSpans()).toEqual([]);
    });

    it('still answers its trace id and gives its log lines the ids', () => {
      const { traceId, spanId } = handled.server.spanContext();
      expect(handled.response.setHeader).toHaveBeenCalledWith('X-Trace-Id', traceId);
      expect(handled.logFields).toEqual({ trace_id: traceId, span_id: spanId, trace_flags: '00' });
    });

    it('hands the trace on to its jobs as not sampled', () => {
      const { traceId, spanId } = handled.server.spanContext();
      expect(handled.jobHeaders.traceparent).toBe(`00-${traceId}-${spanId}-00`);
    });
  });

  describe('a sampled request', () => {
    let handled: Handled;
    beforeAll(async () => {
      sampleRoots = true;
      handled = await handleRequest({ baseUrl: '', route: { path: '/api/v0/budgets/:id' } });
      handled.response.emit('finish');
      handled.server.end();
    });

    it('runs its use case and queue add in spans of its trace', () => {
      const { traceId, spanId } = handled.server.spanContext();
      expect(handled.spanInHandler).toBe(handled.server);
      const spans = exporter.getFinishedSpans();
      const useCase = spans.find((s) => s.name === 'SendCodeUseCase')!;
      const send = spans.find((s) => s.name === 'send code-delivery')!;
      expect(useCase.parentSpanContext?.spanId).toBe(spanId);
      expect(send.parentSpanContext?.spanId).toBe(useCase.spanContext().spanId);
      expect(handled.jobHeaders.traceparent).toBe(`00-${traceId}-${send.spanContext().spanId}-01`);
      expect(handled.logFields).toMatchObject({ trace_id: traceId, trace_flags: '01' });
    });

    it('hands its route template to the http instrumentation once the response finishes', () => {
      expect(handled.metadata.route).toBe('/api/v0/budgets/:id');
    });
  });

  describe('a job', () => {
    async function runJob(producer: Record<string, string>) {
      exporter.reset();
      return hooks.inSpan(
        'process code-delivery',
        'consumer',
        {},
        async () => {
          const span = trace.getSpan(context.active());
          return { span, recording: span?.isRecording(), logFields: hooks.logFields() };
        },
        producer,
      );
    }

    it('of an unsampled trace runs in no span, its log lines carrying the trace id', async () => {
      const traceId = 'a'.repeat(32);
      const ran = await runJob({ traceparent: `00-${traceId}-${'b'.repeat(16)}-00` });
      expect(ran.span).toBeUndefined();
      expect(ran.logFields.trace_id).toBe(traceId);
      expect(exporter.getFinishedSpans()).toEqual([]);
    });

    it("of a sampled trace runs in a consumer span, child of the producer's", async () => {
      const traceId = 'c'.repeat(32);
      const ran = await runJob({ traceparent: `00-${traceId}-${'d'.repeat(16)}-01` });
      expect(ran.recording).toBe(true);
      const [job] = exporter.getFinishedSpans();
      expect(job.spanContext().traceId).toBe(traceId);
      expect(job.parentSpanContext?.spanId).toBe('d'.repeat(16));
    });
  });

  it('makes no trace id for a line written outside any trace', () => {
    expect(hooks.logFields()).toEqual({});
    expect(getRPCMetadata(context.active())).toBeUndefined();
  });
});
