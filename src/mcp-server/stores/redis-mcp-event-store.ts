import { Logger } from '@nestjs/common';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { type RedisService } from '../../redis/redis.service';
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

const MESSAGE_FIELD = 'message';
const END_FIELD = 'end';

interface WrittenStream {
  entries: number;
  ended: boolean;
}

/**
 * Appends entries to a stream and renews its expiry, in one step: one command where a MULTI of
 * XADDs and an EXPIRE took four or five. KEYS: the stream; ARGV: the cap, the expiry in seconds,
 * then position, field, value for each entry.
 */
const APPEND_EVENTS = `
for i = 3, #ARGV, 3 do
  redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], ARGV[i], ARGV[i + 1], ARGV[i + 2])
end
redis.call('EXPIRE', KEYS[1], ARGV[2])`;

const COMMAND = 'switchboardAppendMcpEvents';

type AppendEvents = (key: string, cap: number, ttlSecs: number, ...entries: string[]) => Promise<unknown>;

/** Answer streams as Redis streams (capped, expiring), so a client resumes on whichever replica it reaches. */
export class RedisMcpEventStore implements McpEventStore {
  private readonly logger = new Logger(RedisMcpEventStore.name);
  private readonly appendEvents: AppendEvents;

  constructor(private readonly redis: RedisService) {
    redis.client.defineCommand(COMMAND, { numberOfKeys: 1, lua: APPEND_EVENTS });
    this.appendEvents = (redis.client as unknown as Record<typeof COMMAND, AppendEvents>)[COMMAND].bind(redis.client);
  }

  /**
   * Each stream of the request is new (the SDK names it with a random UUID) and written by this
   * request alone, so its entries' positions are counted here (`0-1`, `0-2`, ...) rather than
   * given by Redis: an event goes to the client without waiting for Redis, its write already on
   * its way on the connection ahead of anything a resumption reads.
   */
  forRequest(sessionId: string, isLast: IsLastEvent): RequestEventStore {
    const streams = new Map<string, WrittenStream>();
    /** Appends `entries` to the stream; `ends`: they complete it. Returns the first entry's position, and the write. */
    const append = (
      streamId: string,
      entries: [field: string, value: string][],
      ends: boolean,
    ): { position: string; written: Promise<void> } => {
      const stream = streams.get(streamId) ?? { entries: 0, ended: false };
      streams.set(streamId, stream);
      stream.ended ||= ends;
      const key = this.key(sessionId, streamId);
      const position = `0-${stream.entries + 1}`;
      const written = this.appendEvents(
        key,
        MAX_EVENTS_PER_STREAM,
        EVENT_STREAM_TTL_SECS,
        ...entries.flatMap(([field, value]) => [`0-${++stream.entries}`, field, value]),
      ).then(
        () => undefined,
        (error: Error) =>
          this.logger.warn(
            { sessionId, streamId, err: error.message },
            'MCP answer stream event not stored: the stream cannot be resumed past it',
          ),
      );
      return { position, written };
    };
    return {
      storeEvent: async (streamId, message) => {
        const last = isLast(message);
        const entries: [string, string][] = last
          ? [
              [MESSAGE_FIELD, JSON.stringify(message)],
              [END_FIELD, '1'],
            ]
          : [[MESSAGE_FIELD, JSON.stringify(message)]];
        return eventId(sessionId, streamId, append(streamId, entries, last).position);
      },
      replayEventsAfter: notResumedBySdk,
      end: async () => {
        const open = [...streams].filter(([, stream]) => !stream.ended).map(([streamId]) => streamId);
        await Promise.all(open.map((streamId) => append(streamId, [[END_FIELD, '1']], true).written));
      },
    };
  }

  async follow(
    sessionId: string,
    lastEventId: string,
    signal: AbortSignal,
  ): Promise<AsyncIterable<StoredEvent> | undefined> {
    const id = parseEventId(lastEventId);
    if (!id || id.sessionId !== sessionId) return undefined;
    const key = this.key(sessionId, id.streamId);
    // The last event seen must still be there, or some after it may have been cut.
    const held = (await this.redis.client
      .xrange(key, id.position, id.position, 'COUNT', 1)
      .catch(() => [])) as unknown[];
    return held.length === 0 ? undefined : this.read(key, sessionId, id.streamId, id.position, signal);
  }

  private async *read(
    key: string,
    sessionId: string,
    streamId: string,
    after: string,
    signal: AbortSignal,
  ): AsyncGenerator<StoredEvent> {
    for await (const batch of this.redis.streams.follow(key, after, signal)) {
      for (const [position, [field, value]] of batch) {
        if (field === END_FIELD) return;
        yield { eventId: eventId(sessionId, streamId, position), message: JSON.parse(value) as JSONRPCMessage };
      }
    }
  }

  private key(sessionId: string, streamId: string): string {
    return this.redis.key('mcp', 'events', sessionId, streamId);
  }
}
