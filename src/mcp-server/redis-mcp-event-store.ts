import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { RedisService } from '../redis/redis.service';
import { execTransaction } from '../redis/redis-transaction';
import { EVENT_STREAM_TTL_SECS, eventId, IsLastEvent, MAX_EVENTS_PER_STREAM, McpEventStore, notResumedBySdk, parseEventId, RequestEventStore, StoredEvent } from './mcp-event-store.interface';

const MESSAGE_FIELD = 'message';
const END_FIELD = 'end';

/** Answer streams as Redis streams (capped, expiring), so a client resumes on whichever replica it reaches. */
export class RedisMcpEventStore implements McpEventStore {
  constructor(private readonly redis: RedisService) {}

  forRequest(sessionId: string, isLast: IsLastEvent): RequestEventStore {
    /** The streams written to, and whether each has ended. */
    const streams = new Map<string, boolean>();
    const append = (streamId: string, entries: [field: string, value: string][]) => {
      const key = this.key(sessionId, streamId);
      const transaction = this.redis.client.multi();
      for (const [field, value] of entries) transaction.xadd(key, 'MAXLEN', '~', MAX_EVENTS_PER_STREAM, '*', field, value);
      return execTransaction(transaction.expire(key, EVENT_STREAM_TTL_SECS));
    };
    return {
      storeEvent: async (streamId, message) => {
        const last = isLast(message);
        streams.set(streamId, last);
        const [position] = await append(streamId, last ? [[MESSAGE_FIELD, JSON.stringify(message)], [END_FIELD, '1']] : [[MESSAGE_FIELD, JSON.stringify(message)]]);
        return eventId(sessionId, streamId, position as string);
      },
      replayEventsAfter: notResumedBySdk,
      end: async () => {
        const open = [...streams].filter(([, ended]) => !ended).map(([streamId]) => streamId);
        await Promise.all(open.map((streamId) => append(streamId, [[END_FIELD, '1']])));
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
