import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { RedisService } from '../redis/redis.service';
import { execTransaction } from '../redis/redis-transaction';
import { EVENT_STREAM_TTL_SECS, eventId, MAX_EVENTS_PER_STREAM, McpEventStore, notResumedBySdk, parseEventId, RequestEventStore, StoredEvent } from './mcp-event-store.interface';

const MESSAGE_FIELD = 'message';
const END_FIELD = 'end';

/** Answer streams as Redis streams (capped, expiring), so a client resumes on whichever replica it reaches. */
export class RedisMcpEventStore implements McpEventStore {
  constructor(private readonly redis: RedisService) {}

  forRequest(sessionId: string): RequestEventStore {
    const streamIds = new Set<string>();
    const append = (streamId: string, field: string, value: string) => {
      const key = this.key(sessionId, streamId);
      return execTransaction(this.redis.client.multi().xadd(key, 'MAXLEN', '~', MAX_EVENTS_PER_STREAM, '*', field, value).expire(key, EVENT_STREAM_TTL_SECS));
    };
    return {
      storeEvent: async (streamId, message) => {
        streamIds.add(streamId);
        const [position] = await append(streamId, MESSAGE_FIELD, JSON.stringify(message));
        return eventId(sessionId, streamId, position as string);
      },
      replayEventsAfter: notResumedBySdk,
      end: async () => {
        await Promise.all([...streamIds].map((streamId) => append(streamId, END_FIELD, '1')));
      },
    };
  }

  async follow(sessionId: string, lastEventId: string, signal: AbortSignal): Promise<AsyncIterable<StoredEvent> | undefined> {
    const id = parseEventId(lastEventId);
    if (!id || id.sessionId !== sessionId) return undefined;
    const key = this.key(sessionId, id.streamId);
    // The last event seen must still be there, or some after it may have been cut.
    const held = (await this.redis.client.xrange(key, id.position, id.position, 'COUNT', 1).catch(() => [])) as unknown[];
    return held.length === 0 ? undefined : this.read(key, sessionId, id.streamId, id.position, signal);
  }

  private async *read(key: string, sessionId: string, streamId: string, after: string, signal: AbortSignal): AsyncGenerator<StoredEvent> {
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
