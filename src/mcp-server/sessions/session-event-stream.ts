import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';

/** Comment frames at most this far apart keep proxies and load balancers from closing an idle stream. */
const MAX_KEEP_ALIVE_MS = 15_000;

/**
 * The bus's events a session's stream carries: list changes, which concern every session. Its
 * `resource_updated` events are for 2026-07-28 listen streams (the SDK filters them per URI); a
 * session's own resource updates are `send` to it.
 */
const NOTIFICATION_METHODS: Partial<Record<ServerEvent['kind'], string>> = {
  tools_list_changed: 'notifications/tools/list_changed',
  prompts_list_changed: 'notifications/prompts/list_changed',
  resources_list_changed: 'notifications/resources/list_changed',
};

export interface SessionEventStreamOptions {
  /** The session's time to live: the stream keeps it alive while open. */
  sessionTtlMs: number;
  /** Extends the session's life; called with every keep-alive frame. */
  keepSession: () => void;
}

export interface SessionEventStream {
  response: Response;
  /** Sends one notification of this session alone (a no-op once the stream has ended). */
  send(message: object): void;
  /** Ends the stream from the server's side (the session ended, or the service is stopping). */
  close(): void;
}

/**
 * The GET stream of a 2025-era session: server-initiated notifications as server-sent events, fed
 * by the same event bus as the 2026-07-28 `subscriptions/listen` streams. Every replica hears the
 * same changes from its own MCP connections, so a stream on any replica carries them. An open stream
 * means a live client, so it keeps the session from expiring. Ends when the client goes away or
 * `close` is called.
 */
export function sessionEventStream(
  bus: ServerEventBus,
  { sessionTtlMs, keepSession }: SessionEventStreamOptions,
): SessionEventStream {
  const encoder = new TextEncoder();
  let open = true;
  let stop = () => {};
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const write = (frame: string) => {
    if (open) controller.enqueue(encoder.encode(frame));
  };
  const send = (message: object) => write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  const body = new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
      const unsubscribe = bus.subscribe((event) => {
        const method = NOTIFICATION_METHODS[event.kind];
        if (method) send({ jsonrpc: '2.0', method, ...(event.params && { params: event.params }) });
      });
      // A first frame at once, so the client has the response headers without waiting for an event.
      write(': open\n\n');
      const keepAlive = setInterval(
        () => {
          write(': keep-alive\n\n');
          keepSession();
        },
        Math.min(MAX_KEEP_ALIVE_MS, sessionTtlMs / 3),
      );
      keepAlive.unref();
      stop = () => {
        open = false;
        clearInterval(keepAlive);
        unsubscribe();
      };
    },
    cancel: () => stop(),
  });
  const headers = {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  };
  return {
    response: new Response(body, { status: 200, headers }),
    send,
    close: () => {
      if (!open) return;
      stop();
      controller.close();
    },
  };
}
