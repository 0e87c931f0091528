import { formatSSEErrorEvent, formatSSEEvent, SSE_HEADERS } from '@a2a-js/sdk';
import type { FastifyReply } from 'fastify';
import { REQUEST_ID_HEADER } from '../logging/request-id';

/**
 * Streams events as Server-Sent Events on a hijacked reply. A caller that awaited the first event
 * before calling (`first`) could still answer an error up front as a plain error response; without
 * it the stream opens at once, and any error is an event in it. A client that goes away stops the
 * iteration, never the task.
 */
export async function streamSse<T>(
  reply: FastifyReply,
  events: AsyncIterable<T>,
  toErrorEvent: (error: unknown) => unknown,
  first?: IteratorResult<T>,
): Promise<void> {
  const iterator = events[Symbol.asyncIterator]();
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, { ...SSE_HEADERS, [REQUEST_ID_HEADER]: String(reply.request.id) });
  // Sent now, not with the first event: a stream that waits for one (a live feed) is open from here.
  raw.flushHeaders();
  let open = true;
  raw.on('close', () => {
    open = false;
    void iterator.return?.();
  });
  try {
    if (first?.done) return;
    if (first) raw.write(formatSSEEvent(first.value));
    while (open) {
      const next = await iterator.next();
      if (next.done || !open) break;
      raw.write(formatSSEEvent(next.value));
    }
  } catch (error) {
    if (open) raw.write(formatSSEErrorEvent(toErrorEvent(error)));
  } finally {
    if (!raw.writableEnded) raw.end();
  }
}

/** A handler's answer that is a stream of events rather than one response. */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof (value as AsyncIterable<unknown> | null)?.[Symbol.asyncIterator] === 'function';
}
