import { StreamResponse } from '@a2a-js/sdk';
import { FOLLOW_RETRY_WINDOW_MS, READ_BATCH, STREAM_START, StreamFollowError } from '../../redis/stream-entries';
import { type RedisService } from '../../redis/redis.service';
import { execTransaction } from '../../redis/redis-transaction';
import { TASK_CHANGES_CHANNEL } from './task-change';
import {
  CLOSED_STREAM_TTL_SECS,
  type KeptTaskEvent,
  type PublishOptions,
  type TaskEventStream,
  type TaskEventStreamEntry,
  TaskEventStreamInterruptedError,
  UNCLOSED_STREAM_TTL_SECS,
} from './task-event-stream.interface';

/** Each entry holds one field: the event, or the close marker. */
const EVENT_FIELD = 'event';
const CLOSED_FIELD = 'closed';
/** Why a read was interrupted, by what ended following the stream. */
const INTERRUPTIONS: Record<StreamFollowError['reason'], string> = {
  lost: 'the stream was lost (Redis restarted or was unreachable)',
  removed: 'the stream was removed with its task',
  unreachable: `Redis was unreachable for ${FOLLOW_RETRY_WINDOW_MS / 1000} s`,
};
/** How a `task` event's JSON begins (StreamResponse.toJSON puts the payload's case first). */
const TASK_EVENT_PREFIX = '{"task":';

/**
 * Task event streams on Redis Streams: XADD with an approximate MAXLEN, a terminal entry marking the
 * close, and expiry. Reads are followed on the process's multiplexed stream readers (a few
 * connections for any number of reads), which retry a failed read for a while and go on only if
 * the stream still holds the last entry read.
 */
export class RedisTaskEventStream implements TaskEventStream {
  constructor(
    private readonly redis: RedisService,
    private readonly maxLen: number,
  ) {}

  async publish(
    taskId: string,
    events: StreamResponse[],
    { close = false, change }: PublishOptions = {},
  ): Promise<string[]> {
    const key = this.key(taskId);
    const transaction = this.redis.client.multi();
    for (const event of events)
      transaction.xadd(key, 'MAXLEN', '~', this.maxLen, '*', EVENT_FIELD, JSON.stringify(StreamResponse.toJSON(event)));
    if (close) transaction.xadd(key, 'MAXLEN', '~', this.maxLen, '*', CLOSED_FIELD, '1');
    transaction.expire(key, close ? CLOSED_STREAM_TTL_SECS : UNCLOSED_STREAM_TTL_SECS);
    if (change) transaction.publish(this.redis.key(TASK_CHANGES_CHANNEL), JSON.stringify(change));
    const replies = await execTransaction(transaction);
    return replies.slice(0, events.length) as string[];
  }

  readonly start = STREAM_START;

  async tail(taskId: string): Promise<string> {
    return (await this.newest(taskId, 1))[0]?.[0] ?? STREAM_START;
  }

  async closure(taskId: string): Promise<{ lastEvent?: StreamResponse } | undefined> {
    const [marker, before] = await this.newest(taskId, 2);
    if (marker?.[1][0] !== CLOSED_FIELD) return undefined;
    const [field, value] = before?.[1] ?? [];
    return { lastEvent: field === EVENT_FIELD ? StreamResponse.fromJSON(JSON.parse(value)) : undefined };
  }

  async turnStart(taskId: string): Promise<string> {
    const key = this.key(taskId);
    let before = '+';
    for (;;) {
      const page = (await this.redis.client.xrevrange(key, before, '-', 'COUNT', READ_BATCH)) as [string, string[]][];
      const found = page.findIndex(
        ([, [field, value]]) => field === EVENT_FIELD && value.startsWith(TASK_EVENT_PREFIX),
      );
      if (found >= 0) return page[found + 1]?.[0] ?? (await this.entryBefore(key, page[found][0]));
      if (page.length < READ_BATCH) return STREAM_START;
      before = `(${page[page.length - 1][0]}`;
    }
  }

  async *read(
    taskId: string,
    { afterId = STREAM_START, signal, fresh = false }: { afterId?: string; signal?: AbortSignal; fresh?: boolean } = {},
  ): AsyncGenerator<TaskEventStreamEntry> {
    try {
      for await (const batch of this.redis.streams.follow(this.key(taskId), afterId, signal, { fresh })) {
        for (const [id, [field, value]] of batch) {
          if (field === CLOSED_FIELD) return;
          yield { id, event: StreamResponse.fromJSON(JSON.parse(value)) };
          if (signal?.aborted) return;
        }
      }
    } catch (error) {
      if (error instanceof StreamFollowError)
        throw new TaskEventStreamInterruptedError(taskId, INTERRUPTIONS[error.reason], { cause: error });
      throw error;
    }
  }

  async kept(taskId: string): Promise<KeptTaskEvent[]> {
    const entries = (await this.redis.client.xrange(this.key(taskId), '-', '+')) as [string, string[]][];
    return (
      entries
        .filter(([, [field]]) => field === EVENT_FIELD)
        // An entry's id begins with the Redis server's clock, in milliseconds, when it was appended.
        .map(([id, [, value]]) => ({
          id,
          event: StreamResponse.fromJSON(JSON.parse(value)),
          at: new Date(Number(id.split('-')[0])),
        }))
    );
  }

  async remove(taskIds: string[]): Promise<void> {
    if (taskIds.length > 0) await this.redis.client.unlink(...taskIds.map((taskId) => this.key(taskId)));
  }

  private async entryBefore(key: string, id: string): Promise<string> {
    const [older] = (await this.redis.client.xrevrange(key, `(${id}`, '-', 'COUNT', 1)) as [string, string[]][];
    return older?.[0] ?? STREAM_START;
  }

  /** The stream's newest `count` entries, newest first. */
  private async newest(taskId: string, count: number): Promise<[id: string, fields: string[]][]> {
    return (await this.redis.client.xrevrange(this.key(taskId), '+', '-', 'COUNT', count)) as [string, string[]][];
  }

  private key(taskId: string): string {
    return this.redis.key('task-events', taskId);
  }
}
