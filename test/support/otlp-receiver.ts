/**
 * An OTLP/HTTP trace receiver for tests, on 127.0.0.1: what an OpenTelemetry collector would be to
 * the processes a test starts (`OTEL_EXPORTER_OTLP_ENDPOINT=<receiver.endpoint>`). It decodes the
 * real wire format, `POST /v1/traces` as protobuf (the exporters' default, `http/protobuf`) or JSON
 * (`http/json`), gzipped or not, and keeps every span it was sent. The protobuf schema is the part
 * of opentelemetry-proto's trace and common messages a test reads, inline: no generated code, no
 * .proto files to fetch (field numbers from opentelemetry/proto/trace/v1/trace.proto).
 */
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { parse as parseProto } from 'protobufjs';

const TRACE_PROTO = `
syntax = "proto3";
message AnyValue {
  oneof value { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4;
                ArrayValue array_value = 5; KeyValueList kvlist_value = 6; bytes bytes_value = 7; }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
message KeyValue { string key = 1; AnyValue value = 2; }
message Resource { repeated KeyValue attributes = 1; }
message InstrumentationScope { string name = 1; string version = 2; }
message Status { string message = 2; int32 code = 3; }
message Link { bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; repeated KeyValue attributes = 4; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; bytes parent_span_id = 4; string name = 5; int32 kind = 6;
  fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8; repeated KeyValue attributes = 9; repeated Link links = 13;
  Status status = 15;
}
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
`;

const EXPORT_REQUEST = parseProto(TRACE_PROTO).root.lookupType('ExportTraceServiceRequest');

/** OTLP's SpanKind values. */
export const SpanKind = { INTERNAL: 1, SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 } as const;

export type AttributeValue =
  string | number | boolean | AttributeValue[] | { [key: string]: AttributeValue } | undefined;

/** One span as a test reads it: ids in lowercase hex, attributes as a plain object. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Undefined for a root span (the field is empty on the wire). */
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, AttributeValue>;
  /** The exporting process's resource: `service.name`, `switchboard.process.role`, ... */
  resource: Record<string, AttributeValue>;
  links: { traceId: string; spanId: string }[];
  status: { code: number; message?: string };
  startTimeUnixNano: string;
  endTimeUnixNano: string;
}

/** How one export request arrived, so a test can tell which encoding the exporter used. */
export interface ReceivedExport {
  path: string;
  contentType: string;
  contentEncoding?: string;
  spans: number;
}

/** The OTLP message shapes, as protobufjs's toObject and the JSON encoding both give them (camelCase). */
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
  startTimeUnixNano?: string | number;
  endTimeUnixNano?: string | number;
  attributes?: WireKeyValue[];
  links?: { traceId?: string; spanId?: string }[];
  status?: { code?: number; message?: string };
}
interface WireRequest {
  resourceSpans?: { resource?: { attributes?: WireKeyValue[] }; scopeSpans?: { spans?: WireSpan[] }[] }[];
}

export class OtlpReceiver {
  /** Every span received so far, in arrival order. */
  readonly spans: ReceivedSpan[] = [];
  /** Every export request received (any path), in arrival order. */
  readonly exports: ReceivedExport[] = [];
  /** Requests the receiver could not decode or did not expect, with why; a test expects none. */
  readonly problems: string[] = [];
  private readonly arrivals = new EventEmitter();

  private constructor(
    private readonly server: Server,
    /** The base URL, for OTEL_EXPORTER_OTLP_ENDPOINT (the exporter appends `/v1/traces`). */
    readonly endpoint: string,
  ) {}

  static async start(): Promise<OtlpReceiver> {
    const server = createServer((request, response) => void self.handle(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const self = new OtlpReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return self;
  }

  /** The spans of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  /**
   * Resolves with the spans received so far once `done` accepts them (at once if it does already),
   * checked again on each export that arrives; rejects after `timeoutMs` naming the spans seen.
   */
  waitFor(
    done: (spans: ReceivedSpan[]) => boolean,
    timeoutMs = 15_000,
    what = 'the expected spans',
  ): Promise<ReceivedSpan[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!done(this.spans)) return;
        settle();
        resolve(this.spans);
      };
      const timer = setTimeout(() => {
        settle();
        const seen = this.spans.map((span) => `${span.traceId.slice(0, 8)}… ${span.name}`).join('\n  ');
        reject(
          new Error(`${what} did not arrive within ${timeoutMs} ms; ${this.spans.length} spans received:\n  ${seen}`),
        );
      }, timeoutMs);
      const settle = () => {
        clearTimeout(timer);
        this.arrivals.off('spans', check);
      };
      this.arrivals.on('spans', check);
      check();
    });
  }

  /** Waits until the spans of `traceId` include one named by each of `names` (a string or a pattern). */
  waitForTrace(traceId: string, names: (string | RegExp)[], timeoutMs?: number): Promise<ReceivedSpan[]> {
    const has = (spans: ReceivedSpan[]) =>
      names.every((name) => spans.some((span) => span.traceId === traceId && matches(span.name, name)));
    return this.waitFor(has, timeoutMs, `spans ${names.map(String).join(', ')} of trace ${traceId}`).then(() =>
      this.trace(traceId),
    );
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const contentType = (request.headers['content-type'] ?? '').split(';', 1)[0].trim().toLowerCase();
    const contentEncoding = request.headers['content-encoding'];
    const path = request.url ?? '';
    if (request.method !== 'POST' || path !== '/v1/traces') {
      this.problems.push(`${request.method} ${path}: not an OTLP trace export`);
      response.writeHead(404).end();
      return;
    }
    let spans: ReceivedSpan[];
    try {
      const raw = Buffer.concat(chunks);
      const body = contentEncoding === 'gzip' ? gunzipSync(raw) : raw;
      spans = spansOf(decode(contentType, body), contentType === 'application/json' ? hexOfHex : hexOfBase64);
    } catch (error) {
      this.problems.push(
        `${contentType} export (${contentEncoding ?? 'identity'}) not decoded: ${(error as Error).message}`,
      );
      response.writeHead(400, { 'content-type': 'text/plain' }).end((error as Error).message);
      return;
    }
    this.exports.push({ path, contentType, contentEncoding, spans: spans.length });
    this.spans.push(...spans);
    // An empty ExportTraceServiceResponse: no body in protobuf, `{}` in JSON (full success).
    if (contentType === 'application/json') response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    else response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    this.arrivals.emit('spans');
  }
}

function decode(contentType: string, body: Buffer): WireRequest {
  if (contentType === 'application/json') return JSON.parse(body.toString('utf8')) as WireRequest;
  if (contentType === 'application/x-protobuf') {
    return EXPORT_REQUEST.toObject(EXPORT_REQUEST.decode(body), { longs: String, bytes: String }) as WireRequest;
  }
  throw new Error(`unsupported content type ${JSON.stringify(contentType)}`);
}

/** Flattens the request into spans, each with its resource's attributes; `hex` turns the wire's ids into hex. */
function spansOf(request: WireRequest, hex: (id: string | undefined) => string): ReceivedSpan[] {
  return (request.resourceSpans ?? []).flatMap(({ resource, scopeSpans }) => {
    const resourceAttributes = attributesOf(resource?.attributes);
    return (scopeSpans ?? []).flatMap(({ spans }) =>
      (spans ?? []).map((span): ReceivedSpan => {
        const parent = hex(span.parentSpanId);
        return {
          traceId: hex(span.traceId),
          spanId: hex(span.spanId),
          ...(parent && { parentSpanId: parent }),
          name: span.name ?? '',
          kind: span.kind ?? 0,
          attributes: attributesOf(span.attributes),
          resource: resourceAttributes,
          links: (span.links ?? []).map((link) => ({ traceId: hex(link.traceId), spanId: hex(link.spanId) })),
          status: { code: span.status?.code ?? 0, ...(span.status?.message && { message: span.status.message }) },
          startTimeUnixNano: String(span.startTimeUnixNano ?? '0'),
          endTimeUnixNano: String(span.endTimeUnixNano ?? '0'),
        };
      }),
    );
  });
}

/** protobufjs gives bytes as base64. */
function hexOfBase64(id: string | undefined): string {
  return id ? Buffer.from(id, 'base64').toString('hex') : '';
}

/** OTLP/JSON spells ids in hex already (not base64, unlike protobuf's canonical JSON mapping). */
function hexOfHex(id: string | undefined): string {
  return (id ?? '').toLowerCase();
}

function attributesOf(list: WireKeyValue[] | undefined): Record<string, AttributeValue> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, valueOf(value)]));
}

function valueOf(value: WireAnyValue | undefined): AttributeValue {
  if (!value) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  if (value.kvlistValue) return attributesOf(value.kvlistValue.values);
  if (value.bytesValue !== undefined) return value.bytesValue;
  return undefined;
}

function matches(name: string, expected: string | RegExp): boolean {
  return typeof expected === 'string' ? name === expected : expected.test(name);
}
