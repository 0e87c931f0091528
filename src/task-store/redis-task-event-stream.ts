import { StreamResponse } from '@a2a-js/sdk';
import { RedisService } from '../redis/redis.service';
import { execTransaction } from './redis-transaction';
import {
  CLOSED_STREAM_TTL_SECS,
  TaskEventStream,
  TaskEventStreamEntry,
  UNCLOSED_STREAM_TTL_SECS,
} from './task-event-stream.interface';

/** Each entry holds one field: the event, or the close marker. */
const EVENT_FIELD = 'event';
const CLOSED_FIELD = 'closed';
/** A blocked read wakes up this often even when nothing arrives, so a dead connection is noticed. */
const BLOCK_MS = 5_000;
const READ_BATCH = 100;
const START = '0-0';
/** How a `task` event's JSON begins (StreamResponse.toJSON puts the payload's case first). */
const TASK_EVENT_PREFIX = '{"task":';

type StreamReply = [key: string, entries: [id: string, fields: string[]][]][] | null;

/**
 * Task event streams on Redis Streams: XADD with an approximate MAXLEN, a terminal entry marking the
 * close, and expiry. Each reader blocks in XREAD on a pooled connection of its own for as long as
 * it reads; aborting wakes a blocked read at once.
 */
export class RedisTaskEventStream implements TaskEventStream {
  constructor(
    private readonly redis: RedisService,
    private readonly maxLen: number,
  ) {}

  async publish(taskId: string, events: StreamResponse[], { close = false }: { close?: boolean } = {}): Promise<string[]> {
    const key = this.key(taskId);
    const transaction = this.redis.client.multi();
    for (const event of events) transaction.xadd(key, 'MAXLEN', '~', this.maxLen, '*', EVENT_FIELD, JSON.stringify(StreamResponse.toJSON(event)));
    if (close) transaction.xadd(key, 'MAXLEN', '~', this.maxLen, '*', CLOSED_FIELD, '1');
    transaction.expire(key, close ? CLOSED_STREAM_TTL_SECS : UNCLOSED_STREAM_TTL_SECS);
    const replies = await execTransaction(transaction);
    return replies.slice(0, events.length) as string[];
  }

  async tail(taskId: string): Promise<string> {
    const [newest] = (await this.redis.client.xrevrange(this.key(taskId), '+', '-', 'COUNT', 1)) as [string, string[]][];
    return newest?.[0] ?? START;
  }

  async turnStart(taskId: string): Promise<string> {
    const key = this.key(taskId);
    let before = '+';
    for (;;) {
      const page = (await this.redis.client.xrevrange(key, before, '-', 'COUNT', READ_BATCH)) as [string, string[]][];
      const found = page.findIndex(([, [field, value]]) => field === EVENT_FIELD && value.startsWith(TASK_EVENT_PREFIX));
      if (found >= 0) return page[found + 1]?.[0] ?? (await this.entryBefore(key, page[found][0]));
      if (page.length < READ_BATCH) return START;
      before = `(${page[page.length - 1][0]}`;
    }
  }

  async *read(taskId: string, { afterId = '0-0', signal }: { afterId?: string; signal?: AbortSignal } = {}): AsyncGenerator<TaskEventStreamEntry> {
    if (signal?.aborted) return;
    const key = this.key(taskId);
    const { connection, release } = await this.redis.blocking.lease(signal);
    let last = afterId;
    let healthy = true;
    try {
      while (!signal?.aborted) {
        const reply = (await connection.xread('COUNT', READ_BATCH, 'BLOCK', BLOCK_MS, 'STREAMS', key, last)) as StreamReply;
        for (const [id, fields] of reply?.[0][1] ?? []) {
          last = id;
          const [field, value] = fields;
          if (field === CLOSED_FIELD) return;
          yield { id, event: StreamResponse.fromJSON(JSON.parse(value)) };
          if (signal?.aborted) return;
        }
      }
    } catch (error) {
      healthy = false;
      throw error;
    } finally {
      release(healthy);
    }
  }

  private async entryBefore(key: string, id: string): Promise<string> {
    const [older] = (await this.redis.client.xrevrange(key, `(${id}`, '-', 'COUNT', 1)) as [string, string[]][];
    return older?.[0] ?? START;
  }

  private key(taskId: string): string {
    return this.redis.key('task-events', taskId);
  }
}
