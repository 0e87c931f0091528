import {
  type JSONRPCMessage,
  type McpHandlerRequestOptions,
  type McpServer,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { CancelWatch } from '../../tasks';
import { isAnswerMessage } from '../json-rpc-shapes';
import type { McpEventStore } from '../stores/mcp-event-store.interface';

/** Sent with the priming event (`retry:`): how soon a client whose stream broke should come back. */
const RECONNECT_AFTER_MS = 1_000;

/**
 * Serves the requests of one POST of a 2025-era session the way the SDK's stateless fallback does
 * (a server of its own over a session-less transport), but with an event store, so the answer
 * stream's events carry ids (and a priming event for 2025-11-25 clients) and a client whose stream
 * breaks resumes it with `Last-Event-ID`. The call therefore outlives its connection: it ends when
 * every request is answered, or when `canceled` aborts (then without an answer, as the spec asks),
 * and disposes `canceled` then.
 */
export async function serveResumably(
  server: McpServer,
  store: McpEventStore,
  sessionId: string,
  request: Request,
  options: McpHandlerRequestOptions,
  requestIds: string[],
  canceled: CancelWatch,
): Promise<Response> {
  const unanswered = new Set(requestIds);
  const isLast = (message: JSONRPCMessage) =>
    isAnswerMessage(message) && unanswered.size === 1 && unanswered.has(String(message.id));
  const events = store.forRequest(sessionId, isLast);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    eventStore: events,
    retryInterval: RECONNECT_AFTER_MS,
  });
  await server.connect(transport);
  const teardown = () => {
    canceled.dispose();
    void events.end().catch(() => undefined);
    void transport.close().catch(() => undefined);
    void server.close().catch(() => undefined);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, sendOptions) => {
    await send(message, sendOptions);
    const answered = isAnswerMessage(message) && unanswered.delete(String(message.id));
    if (answered && unanswered.size === 0) teardown();
  };
  canceled.signal.addEventListener('abort', teardown, { once: true });
  const response = await transport.handleRequest(request, options);
  // Not a stream (refused, or answered as JSON): nothing is left to resume.
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) teardown();
  return response;
}

/** A `Last-Event-ID` resumption of one of the session's answer streams: the events after it, then the rest as they come. */
export async function resumedStream(
  store: McpEventStore,
  sessionId: string,
  lastEventId: string,
  signal: AbortSignal,
): Promise<Response> {
  const events = await store.follow(sessionId, lastEventId, signal);
  if (!events) {
    const message = `Cannot resume after event ${JSON.stringify(lastEventId)}: unknown, expired or too far behind`;
    return Response.json({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }, { status: 404 });
  }
  const encoder = new TextEncoder();
  const iterator = events[Symbol.asyncIterator]();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const { done, value } = await iterator.next();
        if (done) return controller.close();
        // A priming event (no message) only gave the client a position to resume from.
        if (Object.keys(value.message).length === 0) continue;
        return controller.enqueue(
          encoder.encode(`event: message\nid: ${value.eventId}\ndata: ${JSON.stringify(value.message)}\n\n`),
        );
      }
    },
    cancel: () => void iterator.return?.(),
  });
  return new Response(body, {
    headers: {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    },
  });
}
