import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

export const MCP_EVENT_STORE = Symbol('MCP_EVENT_STORE');

/** A stream keeps at most this many events: a client that fell further behind cannot resume. */
export const MAX_EVENTS_PER_STREAM = 1_000;
/** A stream goes this long after its last event. */
export const EVENT_STREAM_TTL_SECS = 600;

/**
 * The SDK's event store for the answer stream of one POST. The stream is complete with its last
 * answer (stored with its end, in one write) or, when the call is canceled first, with `end`.
 */
export interface RequestEventStore extends EventStore {
  end(): Promise<void>;
}

/** Whether a message is the stream's last: the answer to the last request of the POST still unanswered. */
export type IsLastEvent = (message: JSONRPCMessage) => boolean;

export interface StoredEvent {
  eventId: string;
  message: JSONRPCMessage;
}

/**
 * The events of 2025-era answer streams (server-sent events with ids), shared by the replicas, so
 * that a client whose stream broke resumes it with `Last-Event-ID` on any replica. Each stream
 * belongs to a session, and only that session can resume it. Bounded in length and lifetime.
 */
export interface McpEventStore {
  forRequest(sessionId: string, isLast: IsLastEvent): RequestEventStore;
  /**
   * The session's events after `lastEventId`, then the ones still to come, until the stream is
   * complete or `signal` aborts; undefined when the id is unknown, expired, too far behind or
   * another session's.
   */
  follow(sessionId: string, lastEventId: string, signal: AbortSignal): Promise<AsyncIterable<StoredEvent> | undefined>;
}

/** Event ids name their session and stream: `{sessionId}.{streamId}.{position}`. */
export function eventId(sessionId: string, streamId: string, position: string): string {
  return `${sessionId}.${streamId}.${position}`;
}

export function parseEventId(id: string): { sessionId: string; streamId: string; position: string } | undefined {
  const [sessionId, streamId, position, ...rest] = id.split('.');
  return position && rest.length === 0 ? { sessionId, streamId, position } : undefined;
}

/** Resumption is served by McpHttpEndpoint from `follow`, never by the SDK's transport. */
export function notResumedBySdk(): Promise<never> {
  return Promise.reject(new Error('streams are resumed by McpHttpEndpoint, not by the SDK transport'));
}
