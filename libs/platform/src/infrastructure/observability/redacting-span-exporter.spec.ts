import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import { redactAttributes, RedactingSpanExporter, redactSpan } from './redacting-span-exporter';

describe('redactAttributes', () => {
  it('cuts the query string off every URL attribute and drops url.query', () => {
    expect(
      redactAttributes({
        'url.full': 'https://api.example/api/v0/users/current/?api_key=secret',
        'http.url': 'http://h/p?x=1',
        'http.target': '/p?code=123456',
        'url.query': 'api_key=secret',
        'url.path': '/api/v0/users/current/',
        'http.route': '/api/v0/users/current',
      }),
    ).toEqual({
      'url.full': 'https://api.example/api/v0/users/current/',
      'http.url': 'http://h/p',
      'http.target': '/p',
      'url.path': '/api/v0/users/current/',
      'http.route': '/api/v0/users/current',
    });
  });

  it('returns the same object when there is nothing to cut', () => {
    const attributes = { 'url.full': '/api/v0/charges/', 'db.query.text': 'SELECT $1' };
    expect(redactAttributes(attributes)).toBe(attributes);
  });
});

describe('RedactingSpanExporter', () => {
  it('exports views of the spans with redacted attributes and events, the spans untouched', () => {
    const exported: ReadableSpan[] = [];
    const inner: SpanExporter = {
      export: (spans, done) => {
        exported.push(...spans);
        done({ code: 0 });
      },
      shutdown: async () => undefined,
    };
    const span = {
      name: 'GET /api/v0/users/current',
      attributes: { 'url.query': 'api_key=secret', 'http.route': '/api/v0/users/current' },
      events: [{ name: 'e', time: [0, 0], attributes: { 'url.full': '/x?code=1' } }],
      spanContext: () => ({ traceId: 't', spanId: 's', traceFlags: 1 }),
    } as unknown as ReadableSpan;
    new RedactingSpanExporter(inner).export([span], () => undefined);
    expect(exported[0].attributes).toEqual({ 'http.route': '/api/v0/users/current' });
    expect(exported[0].events[0].attributes).toEqual({ 'url.full': '/x' });
    expect(exported[0].name).toBe(span.name);
    expect(exported[0].spanContext().traceId).toBe('t');
    expect(span.attributes['url.query']).toBe('api_key=secret');
  });

  it('exports a span with nothing to cut as it is, and cuts an event alone', () => {
    const clean = {
      name: 'pg.query:SELECT gpumarket',
      attributes: { 'db.query.text': 'SELECT $1', 'url.path': '/api/v0/charges/' },
      events: [{ name: 'e', time: [0, 0], attributes: { 'app.error_code': 'x' } }],
    } as unknown as ReadableSpan;
    expect(redactSpan(clean)).toBe(clean);
    const eventOnly = {
      ...clean,
      events: [{ name: 'e', time: [0, 0], attributes: { 'url.query': 'code=1' } }],
    } as unknown as ReadableSpan;
    const exported = redactSpan(eventOnly);
    expect(exported).not.toBe(eventOnly);
    expect(exported.attributes).toBe(eventOnly.attributes);
    expect(exported.events[0].attributes).toEqual({});
  });
});
