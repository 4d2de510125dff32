import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import protobuf from 'protobufjs';
import { waitFor } from './wait';

/**
 * A small OTLP/HTTP trace receiver, as a collector would be: POST /v1/traces with the
 * protobuf (the exporters' default) or the JSON encoding, decoded into plain spans. Tests
 * read what the processes really exported, not what an SDK mock saw.
 */

export interface ReceivedEvent {
  name: string;
  attributes: Record<string, unknown>;
}

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  /** service.name of the process that exported it. */
  service: string;
  scope: string;
  resource: Record<string, unknown>;
  attributes: Record<string, unknown>;
  events: ReceivedEvent[];
  status: { code: number; message: string };
}

export const SPAN_KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

export interface OtlpReceiver {
  /** The base URL to give as OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  spans: ReceivedSpan[];
  /** The content type of every export request received. */
  contentTypes: string[];
  /** The spans of one trace. */
  trace(traceId: string): ReceivedSpan[];
  /** Waits until `predicate` holds for the spans received so far. */
  waitForSpans(
    predicate: (spans: ReceivedSpan[]) => boolean,
    what: string,
  ): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

/** The part of opentelemetry/proto/collector/trace/v1 a receiver reads. */
const TRACE_PROTO = `
syntax = "proto3";
package otlp;
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message Resource { repeated KeyValue attributes = 1; }
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; }
message InstrumentationScope { string name = 1; string version = 2; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; bytes parent_span_id = 4;
  string name = 5; int32 kind = 6; fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9; repeated Event events = 11; Status status = 15;
}
message Event { fixed64 time_unix_nano = 1; string name = 2; repeated KeyValue attributes = 3; }
message Status { string message = 2; int32 code = 3; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue {
  oneof value {
    string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4;
    ArrayValue array_value = 5; KeyValueList kvlist_value = 6; bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
`;

const ExportRequest = protobuf.parse(TRACE_PROTO).root.lookupType('otlp.ExportTraceServiceRequest');

/** Both encodings as one shape: ids as hex, values as plain JS values. */
interface WireKeyValue {
  key: string;
  value?: WireAnyValue;
}
interface WireAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: WireAnyValue[] };
  kvlistValue?: { values?: WireKeyValue[] };
  bytesValue?: string;
}
interface WireSpan {
  traceId?: string;
  spanId?: string;
  parentSpanId?: string;
  name?: string;
  kind?: number;
  attributes?: WireKeyValue[];
  events?: { name?: string; attributes?: WireKeyValue[] }[];
  status?: { code?: number; message?: string };
}
interface WireRequest {
  resourceSpans?: {
    resource?: { attributes?: WireKeyValue[] };
    scopeSpans?: { scope?: { name?: string }; spans?: WireSpan[] }[];
  }[];
}

function anyValue(value: WireAnyValue | undefined): unknown {
  if (!value) return null;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(anyValue);
  if (value.kvlistValue) return keyValues(value.kvlistValue.values);
  if (value.bytesValue !== undefined) return value.bytesValue;
  return null;
}

function keyValues(list: WireKeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, anyValue(value)]));
}

/** JSON ids are hex already; protobuf's, read with bytes as base64, are turned to hex. */
function hexId(id: string | undefined, base64: boolean): string {
  if (!id) return '';
  return base64 ? Buffer.from(id, 'base64').toString('hex') : id.toLowerCase();
}

function decode(body: Buffer, contentType: string): { request: WireRequest; base64Ids: boolean } {
  if (contentType.includes('json'))
    return { request: JSON.parse(body.toString('utf8')) as WireRequest, base64Ids: false };
  const message = ExportRequest.decode(body);
  const request = ExportRequest.toObject(message, {
    longs: String,
    bytes: String,
    defaults: false,
    oneofs: false,
  }) as WireRequest;
  return { request, base64Ids: true };
}

function spansOf(request: WireRequest, base64Ids: boolean): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of request.resourceSpans ?? []) {
    const resource = keyValues(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      for (const span of scopeSpans.spans ?? []) {
        spans.push({
          traceId: hexId(span.traceId, base64Ids),
          spanId: hexId(span.spanId, base64Ids),
          parentSpanId: hexId(span.parentSpanId, base64Ids),
          name: span.name ?? '',
          kind: span.kind ?? 0,
          service: String(resource['service.name'] ?? ''),
          scope: scopeSpans.scope?.name ?? '',
          resource,
          attributes: keyValues(span.attributes),
          events: (span.events ?? []).map((event) => ({
            name: event.name ?? '',
            attributes: keyValues(event.attributes),
          })),
          status: { code: span.status?.code ?? 0, message: span.status?.message ?? '' },
        });
      }
    }
  }
  return spans;
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      const contentType = request.headers['content-type'] ?? '';
      contentTypes.push(contentType);
      try {
        const { request: decoded, base64Ids } = decode(body, contentType);
        spans.push(...spansOf(decoded, base64Ids));
      } catch (error) {
        response.writeHead(400, { 'Content-Type': 'text/plain' }).end(String(error));
        return;
      }
      // An empty ExportTraceServiceResponse: everything accepted.
      if (contentType.includes('json'))
        response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      else response.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    trace: (traceId) => spans.filter((span) => span.traceId === traceId),
    waitForSpans: (predicate, what) =>
      waitFor(
        async () => [...spans],
        (current) => predicate(current),
        { what, intervalMs: 50 },
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
