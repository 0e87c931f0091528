import { type Context, context, propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { tracingOn } from './spans';

/**
 * W3C trace context as text fields: what job data, MCP `_meta` (2026-07-28's `traceparent`,
 * `tracestate`) and A2A message metadata carry, beside HTTP headers.
 */
export interface TraceCarrier {
  traceparent: string;
  tracestate?: string;
}

/** Where a task's metadata names the trace of its latest turn, for operators (the console links it). */
export const TRACE_ID_METADATA_KEY = 'switchboard/trace_id';

/** The active span's context as a carrier; undefined when off or outside a span. */
export function activeTraceCarrier(): TraceCarrier | undefined {
  if (!tracingOn()) return undefined;
  const fields: Partial<TraceCarrier> = {};
  propagation.inject(context.active(), fields);
  return fields.traceparent
    ? { traceparent: fields.traceparent, ...(fields.tracestate && { tracestate: fields.tracestate }) }
    : undefined;
}

/** The context a carrier names (a field holding one: job data, `_meta`, metadata); a new root when it names none. */
export function contextOfCarrier(carrier: unknown): Context {
  const fields = carrier as Partial<Record<keyof TraceCarrier, unknown>> | undefined;
  if (typeof fields?.traceparent !== 'string') return ROOT_CONTEXT;
  const text = {
    traceparent: fields.traceparent,
    ...(typeof fields.tracestate === 'string' && { tracestate: fields.tracestate }),
  };
  return propagation.extract(ROOT_CONTEXT, text);
}

/** Whether a context carries a remote caller's span (a valid `traceparent` was read). */
export function hasRemoteSpan(carried: Context): boolean {
  return trace.getSpanContext(carried) !== undefined;
}

/** The trace the active span belongs to; undefined when off or outside a span. */
export function activeTraceId(): string | undefined {
  return tracingOn() ? trace.getActiveSpan()?.spanContext().traceId : undefined;
}

/** The active span's ids, for a log line; empty when off or outside a span. */
export function activeSpanIds(): { trace_id?: string; span_id?: string } {
  const span = tracingOn() ? trace.getActiveSpan() : undefined;
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
