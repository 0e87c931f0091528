import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import {
  EVENT_STREAM_TTL_SECS,
  eventId,
  type IsLastEvent,
  MAX_EVENTS_PER_STREAM,
  type McpEventStore,
  notResumedBySdk,
  parseEventId,
  type RequestEventStore,
  type StoredEvent,
} from './mcp-event-store.interface';

/** Streams held at once; the oldest goes first. */
const MAX_STREAMS = 10_000;

interface MemoryStream {
  /** Position of `events[0]`; positions count up from 1. */
  first: number;
  events: JSONRPCMessage[];
  ended: boolean;
  expiresAt: number;
  /** Readers waiting for the next event. */
  wake: Set<() => void>;
}

/** Answer streams of one process: embedded mode, where one process is the whole service. */
export class MemoryMcpEventStore implements McpEventStore {
  /** By `{sessionId}.{streamId}`, in the order they expire (a Map keeps insertion order; a touched stream moves to the end). */
  private readonly streams = new Map<string, MemoryStream>();

  forRequest(sessionId: string, isLast: IsLastEvent): RequestEventStore {
    const streamIds = new Set<string>();
    return {
      storeEvent: async (streamId, message) => {
        streamIds.add(streamId);
        const key = `${sessionId}.${streamId}`;
        const stream = this.stream(key);
        stream.events.push(message);
        if (stream.events.length > MAX_EVENTS_PER_STREAM) {
          stream.events.shift();
          stream.first += 1;
        }
        stream.ended ||= isLast(message);
        this.touch(key, stream);
        return eventId(sessionId, streamId, String(stream.first + stream.events.length - 1));
      },
      replayEventsAfter: notResumedBySdk,
      end: async () => {
        for (const streamId of streamIds) {
          const key = `${sessionId}.${streamId}`;
          const stream = this.stream(key);
          if (!stream.ended) this.touch(key, Object.assign(stream, { ended: true }));
        }
      },
    };
  }

  async follow(
    sessionId: string,
    lastEventId: string,
    signal: AbortSignal,
  ): Promise<AsyncIterable<StoredEvent> | undefined> {
    const id = parseEventId(lastEventId);
    const stream = id?.sessionId === sessionId ? this.live(`${sessionId}.${id.streamId}`) : undefined;
    const after = Number(id?.position);
    if (!id || !stream || !Number.isInteger(after) || after + 1 < stream.first) return undefined;
    return this.read(stream, sessionId, id.streamId, after, signal);
  }

  private async *read(
    stream: MemoryStream,
    sessionId: string,
    streamId: string,
    after: number,
    signal: AbortSignal,
  ): AsyncGenerator<StoredEvent> {
    let next = after + 1;
    while (!signal.aborted) {
      for (; next < stream.first + stream.events.length; next++) {
        yield { eventId: eventId(sessionId, streamId, String(next)), message: stream.events[next - stream.first] };
      }
      if (stream.ended) return;
      await new Promise<void>((resolve) => {
        const wake = () => {
          stream.wake.delete(wake);
          signal.removeEventListener('abort', wake);
          resolve();
        };
        stream.wake.add(wake);
        signal.addEventListener('abort', wake, { once: true });
      });
    }
  }

  private stream(key: string): MemoryStream {
    let stream = this.live(key);
    if (!stream) {
      this.dropExpired();
      if (this.streams.size >= MAX_STREAMS) this.streams.delete(this.streams.keys().next().value!);
      stream = { first: 1, events: [], ended: false, expiresAt: 0, wake: new Set() };
      this.streams.set(key, stream);
    }
    return stream;
  }

  private live(key: string): MemoryStream | undefined {
    const stream = this.streams.get(key);
    return stream && stream.expiresAt > Date.now() ? stream : undefined;
  }

  /** An event came (or the end): extends the stream's life and wakes its readers. */
  private touch(key: string, stream: MemoryStream): void {
    stream.expiresAt = Date.now() + EVENT_STREAM_TTL_SECS * 1000;
    this.streams.delete(key);
    this.streams.set(key, stream);
    for (const wake of [...stream.wake]) wake();
  }

  private dropExpired(): void {
    const now = Date.now();
    for (const [key, stream] of this.streams) {
      if (stream.expiresAt > now) return;
      this.streams.delete(key);
    }
  }
}
