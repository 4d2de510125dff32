import type { Attributes } from '@opentelemetry/api';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';

/**
 * Attributes holding a URL or a request target. Query strings are where a client may put
 * what must never be exported (the public client once sent `?api_key=`), and a trace needs
 * the path and the route template, not the query: it is cut from all of them.
 */
const URL_ATTRIBUTES = new Set(['url.full', 'http.url', 'http.target']);
/** Attributes that are nothing but a query string. */
const QUERY_ATTRIBUTES = new Set(['url.query']);

/** The attributes as they may leave the process: URLs without their query string. */
export function redactAttributes(attributes: Attributes): Attributes {
  let redacted: Attributes | null = null;
  for (const [key, value] of Object.entries(attributes)) {
    const drop = QUERY_ATTRIBUTES.has(key);
    const cut = URL_ATTRIBUTES.has(key) && typeof value === 'string' && value.includes('?');
    if (!drop && !cut) continue;
    redacted ??= { ...attributes };
    if (drop) delete redacted[key];
    else redacted[key] = (value as string).split('?')[0];
  }
  return redacted ?? attributes;
}

/**
 * The span as exported: its own attributes and its events' redacted, the rest as it is.
 * Nearly every span has nothing to cut (statements, commands, use cases, server spans
 * whose attributes hold the path alone) and leaves as it is: a view costs the encoder a
 * prototype lookup for every field it reads.
 */
export function redactSpan(span: ReadableSpan): ReadableSpan {
  const attributes = redactAttributes(span.attributes);
  let eventsCut = false;
  const events = span.events.map((event) => {
    if (!event.attributes) return event;
    const cut = redactAttributes(event.attributes);
    if (cut === event.attributes) return event;
    eventsCut = true;
    return { ...event, attributes: cut };
  });
  if (attributes === span.attributes && !eventsCut) return span;
  // A view over the ended span (its methods and every other field come from it).
  return Object.create(span, {
    attributes: { value: attributes, enumerable: true },
    events: { value: events, enumerable: true },
  }) as ReadableSpan;
}

/**
 * Wraps the configured exporter so that every span goes through redactSpan on its way out,
 * whichever instrumentation made it: the one place that decides what leaves the process.
 */
export class RedactingSpanExporter implements SpanExporter {
  constructor(private readonly inner: SpanExporter) {}

  export(spans: ReadableSpan[], resultCallback: Parameters<SpanExporter['export']>[1]): void {
    this.inner.export(spans.map(redactSpan), resultCallback);
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}
