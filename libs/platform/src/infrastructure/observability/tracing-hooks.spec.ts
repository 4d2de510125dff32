import { context, propagation, Span, SpanKind, trace } from '@opentelemetry/api';
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

afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
});

/** What the request's handlers saw, run through the server-span middleware. */
interface Handled {
  traceId: string;
  response: Response & EventEmitter;
  spanInHandler: Span | undefined;
  logFields: Record<string, string>;
  jobHeaders: Record<string, string>;
}

function fakeRequest(headers: Record<string, string> = {}): Request {
  return Object.assign(new EventEmitter(), {
    method: 'GET',
    url: '/api/v0/budgets/5/?api_key=planted-key',
    originalUrl: '/api/v0/budgets/5/?api_key=planted-key',
    baseUrl: '',
    headers: { host: 'api.test:3000', 'user-agent': 'spec', ...headers },
    httpVersion: '1.1',
    socket: { remoteAddress: '127.0.0.1' },
    ip: '127.0.0.1',
  }) as unknown as Request;
}

async function handleRequest(request: Request = fakeRequest()): Promise<Handled> {
  exporter.reset();
  const response = Object.assign(new EventEmitter(), { setHeader: jest.fn(), statusCode: 404 });
  const handled = await new Promise<Omit<Handled, 'traceId' | 'response'>>((resolve, reject) => {
    const next: NextFunction = () => {
      const spanInHandler = trace.getSpan(context.active());
      const logFields = hooks.logFields();
      hooks
        .around('SendCodeUseCase', {}, () =>
          hooks.inSpan('send code-delivery', 'producer', {}, async (headers) => headers),
        )
        .then((jobHeaders) => resolve({ spanInHandler, logFields, jobHeaders }), reject);
    };
    hooks.requestSpan(request, response as unknown as Response, next);
  });
  // Routing found the route; the response is over.
  Object.assign(request, { route: { path: '/api/v0/budgets/:id' } });
  response.emit('close');
  const traceId = (response.setHeader.mock.calls[0] as [string, string])[1];
  return { traceId, response: response as unknown as Response & EventEmitter, ...handled };
}

describe('tracing hooks', () => {
  describe('a request whose trace is not sampled', () => {
    let handled: Handled;
    beforeAll(async () => {
      sampleRoots = false;
      handled = await handleRequest();
    });

    it('runs its handlers with no span in their context, so the instrumentations make none', () => {
      expect(handled.spanInHandler).toBeUndefined();
      expect(exporter.getFinishedSpans()).toEqual([]);
    });

    it('still answers its trace id and gives its log lines the ids', () => {
      expect(handled.response.setHeader).toHaveBeenCalledWith('X-Trace-Id', handled.traceId);
      expect(handled.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(handled.logFields).toEqual({
        trace_id: handled.traceId,
        span_id: expect.stringMatching(/^[0-9a-f]{16}$/),
        trace_flags: '00',
      });
    });

    it('hands the trace on to its jobs as not sampled', () => {
      expect(handled.jobHeaders.traceparent).toBe(
        `00-${handled.traceId}-${handled.logFields.span_id}-00`,
      );
    });
  });

  describe('a sampled request', () => {
    let handled: Handled;
    beforeAll(async () => {
      sampleRoots = true;
      handled = await handleRequest();
    });

    it('runs its use case and queue add in spans under its server span', () => {
      const spans = exporter.getFinishedSpans();
      const server = spans.find((s) => s.kind === SpanKind.SERVER)!;
      const useCase = spans.find((s) => s.name === 'SendCodeUseCase')!;
      const send = spans.find((s) => s.name === 'send code-delivery')!;
      expect(server.spanContext().traceId).toBe(handled.traceId);
      expect(handled.spanInHandler?.spanContext().spanId).toBe(server.spanContext().spanId);
      expect(useCase.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
      expect(send.parentSpanContext?.spanId).toBe(useCase.spanContext().spanId);
      expect(handled.jobHeaders.traceparent).toBe(
        `00-${handled.traceId}-${send.spanContext().spanId}-01`,
      );
      expect(handled.logFields).toMatchObject({ trace_id: handled.traceId, trace_flags: '01' });
    });

    it('names its server span by the route template, with the status and no query string', () => {
      const server = exporter.getFinishedSpans().find((s) => s.kind === SpanKind.SERVER)!;
      expect(server.name).toBe('GET /api/v0/budgets/:id');
      expect(server.attributes).toMatchObject({
        'http.request.method': 'GET',
        'http.route': '/api/v0/budgets/:id',
        'http.response.status_code': 404,
        'url.path': '/api/v0/budgets/5/',
        'server.address': 'api.test',
        'server.port': 3000,
      });
      expect(JSON.stringify(server.attributes)).not.toContain('planted-key');
    });

    it("continues a caller's trace", async () => {
      const traceId = 'e'.repeat(32);
      const caller = await handleRequest(
        fakeRequest({ traceparent: `00-${traceId}-${'f'.repeat(16)}-01` }),
      );
      const server = exporter.getFinishedSpans().find((s) => s.kind === SpanKind.SERVER)!;
      expect(caller.traceId).toBe(traceId);
      expect(server.parentSpanContext?.spanId).toBe('f'.repeat(16));
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
  });

  it('makes no span for probes and scrapes', async () => {
    exporter.reset();
    sampleRoots = true;
    const request = Object.assign(fakeRequest(), { url: '/health/ready' });
    const response = { setHeader: jest.fn() } as unknown as Response;
    const next = jest.fn();
    hooks.requestSpan(request, response, next);
    expect(next).toHaveBeenCalled();
    expect(response.setHeader).not.toHaveBeenCalled();
  });
});
