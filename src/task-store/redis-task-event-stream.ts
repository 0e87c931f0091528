import { StreamResponse } from '@a2a-js/sdk';
import type Redis from 'ioredis';
import { abortableSleep } from '../common/abortable-sleep';
import { backoffDelayMs } from '../common/backoff';
import { RedisService } from '../redis/redis.service';
import { execTransaction } from './redis-transaction';
import {
  CLOSED_STREAM_TTL_SECS,
  TaskEventStream,
  TaskEventStreamEntry,
  TaskEventStreamInterruptedError,
  UNCLOSED_STREAM_TTL_SECS,
} from './task-event-stream.interface';

/** Each entry holds one field: the event, or the close marker. */
const EVENT_FIELD = 'event';
const CLOSED_FIELD = 'closed';
/** A blocked read wakes up this often even when nothing arrives, so a dead connection is noticed. */
const BLOCK_MS = 5_000;
const READ_BATCH = 100;
/** How long a read keeps trying to reach Redis again before it interrupts its reader. */
const READ_RETRY_WINDOW_MS = 10_000;
const READ_RETRY_BACKOFF = { baseMs: 200, maxMs: 2_000 };
const NEVER = new AbortController().signal;
const START = '0-0';
/** How a `task` event's JSON begins (StreamResponse.toJSON puts the payload's case first). */
const TASK_EVENT_PREFIX = '{"task":';

type StreamReply = [key: string, entries: [id: string, fields: string[]][]][] | null;

/** Where a read is: the last entry it has passed on, and whether its connection was disrupted since. */
interface ReadPosition {
  taskId: string;
  key: string;
  last: string;
  disrupted: boolean;
  /** Since when, and how many times in a row, reading has failed. */
  outage?: { since: number; failures: number };
}

/**
 * Task event streams on Redis Streams: XADD with an approximate MAXLEN, a terminal entry marking the
 * close, and expiry. Each reader blocks in XREAD on a pooled connection of its own for as long as
 * it reads; aborting wakes a blocked read at once. A read that fails is tried again for a while,
 * and goes on only if the stream still holds the last entry it read.
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

  async *read(taskId: string, { afterId = START, signal }: { afterId?: string; signal?: AbortSignal } = {}): AsyncGenerator<TaskEventStreamEntry> {
    const position: ReadPosition = { taskId, key: this.key(taskId), last: afterId, disrupted: false };
    while (!signal?.aborted) {
      try {
        yield* this.follow(position, signal);
        return;
      } catch (error) {
        if (signal?.aborted) return;
        if (error instanceof TaskEventStreamInterruptedError) throw error;
        position.disrupted = true;
        const outage = (position.outage ??= { since: Date.now(), failures: 0 });
        if (Date.now() - outage.since >= READ_RETRY_WINDOW_MS) {
          throw new TaskEventStreamInterruptedError(taskId, `Redis was unreachable for ${READ_RETRY_WINDOW_MS / 1000} s`, { cause: error });
        }
        await abortableSleep(backoffDelayMs(outage.failures++, READ_RETRY_BACKOFF), signal ?? NEVER).catch(() => undefined);
      }
    }
  }

  async remove(taskIds: string[]): Promise<void> {
    if (taskIds.length > 0) await this.redis.client.unlink(...taskIds.map((taskId) => this.key(taskId)));
  }

  /**
   * Reads on one leased connection from `position.last` on, moving it along. After a disruption (a
   * failed read, or a reconnect under a pending one, which ioredis answers by sending it again) the
   * stream must still hold the last entry read, or entries after it may have been lost with it.
   */
  private async *follow(position: ReadPosition, signal: AbortSignal | undefined): AsyncGenerator<TaskEventStreamEntry> {
    const { connection, release } = await this.redis.blocking.lease(signal);
    const disrupt = () => (position.disrupted = true);
    connection.on('close', disrupt);
    let healthy = true;
    try {
      while (!signal?.aborted) {
        if (position.disrupted) {
          if (position.last === START || !(await this.holds(connection, position))) {
            throw new TaskEventStreamInterruptedError(position.taskId, 'the stream was lost (Redis restarted or was unreachable)');
          }
          position.disrupted = false;
        }
        const reply = (await connection.xread('COUNT', READ_BATCH, 'BLOCK', BLOCK_MS, 'STREAMS', position.key, position.last)) as StreamReply;
        position.outage = undefined;
        if (signal?.aborted || position.disrupted) continue;
        if (!reply && position.last !== START && !(await this.holds(connection, position))) {
          throw new TaskEventStreamInterruptedError(position.taskId, 'the stream was removed with its task');
        }
        for (const [id, [field, value]] of reply?.[0][1] ?? []) {
          position.last = id;
          if (field === CLOSED_FIELD) return;
          yield { id, event: StreamResponse.fromJSON(JSON.parse(value)) };
          if (signal?.aborted) return;
        }
      }
    } catch (error) {
      healthy = false;
      throw error;
    } finally {
      connection.off('close', disrupt);
      release(healthy);
    }
  }

  /** Whether the stream still holds the last entry read. */
  private async holds(connection: Redis, { key, last }: ReadPosition): Promise<boolean> {
    return ((await connection.xrange(key, last, last, 'COUNT', 1)) as unknown[]).length > 0;
  }

  private async entryBefore(key: string, id: string): Promise<string> {
    const [older] = (await this.redis.client.xrevrange(key, `(${id}`, '-', 'COUNT', 1)) as [string, string[]][];
    return older?.[0] ?? START;
  }

  private key(taskId: string): string {
    return this.redis.key('task-events', taskId);
  }
}
