/**
 * The way back from the MCP SDK's HTTP handlers, which answer with a fetch `Response`, to Fastify
 * (the way there is `forwardedRequest`).
 */
import type { FastifyReply } from 'fastify';
import { whenClientLeaves } from '../../common/client-gone';

/**
 * Headers about the connection, which is Node's to manage: the MCP SDK marks its SSE answers
 * `Connection: keep-alive`, which would keep open a connection the client asked to close.
 */
const HOP_BY_HOP_HEADERS = ['connection', 'keep-alive'];

export function isEventStream(response: Response): boolean {
  return response.headers.get('content-type')?.startsWith('text/event-stream') === true;
}

/** A JSON answer is sent as one string; an SSE stream is piped as it comes (Fastify cancels it if the client leaves). */
export async function sendFetchResponse(reply: FastifyReply, response: Response): Promise<void> {
  for (const name of HOP_BY_HOP_HEADERS) response.headers.delete(name);
  if (response.body === null || isEventStream(response)) {
    await reply.send(response);
    return;
  }
  reply.code(response.status);
  for (const [name, value] of response.headers) reply.header(name, value);
  await reply.send(await response.text());
}

/**
 * An abort signal that fires if the client goes away before the answer is complete, or when
 * `stopping` (the server's, for streams it ends at shutdown) fires while the answer is open. It
 * follows `stopping` only while the answer is open: a signal made by `AbortSignal.any` with it
 * would be kept as long as the server by any listener left on it, with whatever that listener holds
 * (nodejs/node#64476), as when a stream is ended by the server rather than by its client.
 */
export function clientGoneSignal(reply: FastifyReply, stopping?: AbortSignal): AbortSignal {
  const gone = new AbortController();
  const abort = () => gone.abort();
  whenClientLeaves(reply.raw, abort);
  if (stopping?.aborted) abort();
  // Aborted already (the client left while the request was on its way, or the server is stopping).
  if (!stopping || gone.signal.aborted) return gone.signal;
  stopping.addEventListener('abort', abort, { once: true });
  reply.raw.once('close', () => stopping.removeEventListener('abort', abort));
  return gone.signal;
}
