import {
  type Attributes,
  type Context,
  context,
  type Link,
  type Span,
  type SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { SWITCHBOARD_VERSION } from '../common/version';

let exporting = false;

/** Whether this process exports traces (startTracing said so). Off, no span is made, not even a no-op one. */
export function tracingOn(): boolean {
  return exporting;
}

export function markTracingOn(): void {
  exporting = true;
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The span's parent; the active span's context when unset. */
  parent?: Context;
  links?: Link[];
}

export function tracer() {
  return trace.getTracer('switchboard', SWITCHBOARD_VERSION);
}

/**
 * Runs `run` in a new span, the active one meanwhile, ended when `run` settles (an error it throws
 * is recorded). Off, `run` runs as it is: `options` is a function so that nothing is built then.
 */
export async function inSpan<T>(
  name: string,
  options: () => SpanOptions,
  run: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!exporting) return run(undefined);
  const { parent = context.active(), ...spanOptions } = options();
  const span = tracer().startSpan(name, spanOptions, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => run(span));
  } catch (error) {
    spanFailed(span, error);
    throw error;
  } finally {
    span.end();
  }
}

export function spanFailed(span: Span, error: unknown): void {
  const message = (error as Error)?.message ?? String(error);
  span.recordException(error instanceof Error ? error : message);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/** An event on the active span (a store write retried, say); nothing when off or outside a span. */
export function spanEvent(name: string, attributes: () => Attributes): void {
  if (exporting) trace.getActiveSpan()?.addEvent(name, attributes());
}
