import {
  type Attributes,
  context,
  ROOT_CONTEXT,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { principalOf } from '../security/principal';
import { tracer } from '../tracing/spans';
import { contextOfCarrier, hasRemoteSpan } from '../tracing/trace-context';

/** Each request's span, for its access line, which is written outside the span's context. */
const requestSpans = new WeakMap<object, Span>();

/** The trace and span of a request's server span, for its access line; empty when it has none. */
export function requestSpanIds(raw: object): { trace_id?: string; span_id?: string } {
  const span = requestSpans.get(raw);
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** Probes and scrapes: a span each every few seconds would bury the requests that matter. */
const UNTRACED_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

type Fields = Record<string, unknown> | undefined;

/**
 * One server span per HTTP request, the active span while it is handled (so queued jobs, upstream
 * calls and log lines join its trace). It continues the caller's trace: the `traceparent` header,
 * or the one a JSON-RPC body carries where no header does (MCP 2026-07-28's `_meta`, A2A message
 * metadata). Started once the body is read, named by the protocol method when there is one, and
 * ended when the response is.
 */
export function registerRequestSpans(fastify: FastifyInstance): void {
  fastify.addHook('preHandler', (request, reply, done) => {
    const route = request.routeOptions.url;
    if (route === undefined || UNTRACED_ROUTES.has(route)) return done();
    const rpc = jsonRpcOf(request.body);
    const fromHeaders = propagation.extract(ROOT_CONTEXT, request.headers);
    const parent = hasRemoteSpan(fromHeaders)
      ? fromHeaders
      : contextOfCarrier(carrierIn(rpc ? rpc.params : (request.body as Fields)));
    const span = tracer().startSpan(
      spanName(request, route, rpc),
      { kind: SpanKind.SERVER, attributes: requestAttributes(request, route, rpc) },
      parent,
    );
    requestSpans.set(request.raw, span);
    reply.raw.once('close', () => {
      const status = reply.raw.statusCode;
      span.setAttribute('http.response.status_code', status);
      const principal = principalOf(request)?.name;
      if (principal) span.setAttribute('switchboard.principal', principal);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: String(status) });
      if (!reply.raw.writableFinished) span.setAttribute('error.type', 'connection_closed');
      span.end();
    });
    context.with(trace.setSpan(parent, span), done);
  });
}

function jsonRpcOf(body: unknown): { method: string; params: Fields } | undefined {
  const message = body as Fields;
  if (typeof message?.method !== 'string' || message.jsonrpc === undefined) return undefined;
  return { method: message.method, params: message.params as Fields };
}

/** Where a request carries trace context in its body: MCP's `_meta`, an A2A send's message metadata (JSON-RPC params, or the HTTP+JSON body). */
function carrierIn(params: Fields): unknown {
  const meta = params?._meta as Fields;
  if (typeof meta?.traceparent === 'string') return meta;
  return ((params?.message as Fields)?.metadata as Fields) ?? undefined;
}

function spanName(request: FastifyRequest, route: string, rpc: { method: string; params: Fields } | undefined): string {
  if (!rpc) return `${request.method} ${route}`;
  const tool = rpc.method === 'tools/call' ? rpc.params?.name : undefined;
  return typeof tool === 'string' ? `${rpc.method} ${tool}` : rpc.method;
}

function requestAttributes(
  request: FastifyRequest,
  route: string,
  rpc: { method: string; params: Fields } | undefined,
): Attributes {
  const agent = (request.params as Fields)?.name;
  return {
    'http.request.method': request.method,
    'http.route': route,
    'url.path': request.url.split('?', 1)[0],
    'client.address': request.ip,
    ...(typeof agent === 'string' && { 'gen_ai.agent.name': agent }),
    ...(rpc && { 'rpc.system.name': 'jsonrpc', 'rpc.method': rpc.method }),
    ...(rpc && route === '/mcp' && { 'mcp.method.name': rpc.method }),
    ...(rpc?.method === 'tools/call' &&
      typeof rpc.params?.name === 'string' && { 'gen_ai.tool.name': rpc.params.name }),
  };
}
