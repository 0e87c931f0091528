import type Redis from 'ioredis';
import { abortableSleep } from '../common/abortable-sleep';
import { backoffDelayMs } from '../common/backoff';
import {
  FOLLOW_RETRY_WINDOW_MS,
  READ_BATCH,
  STREAM_START,
  type StreamEntry,
  StreamFollowError,
} from './stream-entries';
import { StreamReader } from './stream-reader';
import { StreamSubscription } from './stream-subscription';

/**
 * Streams per XREAD: a reader's every read costs Redis about 2 µs per stream it names (measured on
 * Redis 7), so 1,000 keeps a read of a full reader near 2 ms while 10,000 followed streams take 10
 * connections.
 */
const MAX_STREAMS_PER_READER = 1_000;
const RETRY_BACKOFF = { baseMs: 200, maxMs: 2_000 };
const NEVER = new AbortController().signal;

/**
 * Follows any number of Redis streams on a bounded set of connections: a follower first reads what
 * is already there on the shared command connection (unless its stream is fresh), then waits on
 * one of a few multiplexed readers (a new one only when all have MAX_STREAMS_PER_READER streams).
 * After a disruption (a failed read, a lost connection) a follower goes on only if its stream still
 * holds the last entry it read, and gives up when Redis stays unreachable for FOLLOW_RETRY_WINDOW_MS.
 */
export class StreamReaders {
  private readonly readers: StreamReader[] = [];
  private closed = false;

  constructor(
    private readonly open: () => Redis,
    private readonly commands: Redis,
    /** The wake-up stream of the reader numbered `n`. */
    private readonly wakeKey: (n: number) => string,
  ) {}

  /** How many followers wait on the readers (the others are reading what is already there). */
  get waiting(): number {
    return this.readers.reduce((sum, reader) => sum + reader.followers, 0);
  }

  /**
   * Batches of the entries of `key` after `after`, then live ones as they are added, until `signal`
   * aborts or the caller stops. Throws StreamFollowError when it cannot go on without possibly
   * skipping entries. A `fresh` stream (nothing after `after` yet) is waited on at once: the
   * multiplexed read returns whatever was added meanwhile.
   */
  async *follow(
    key: string,
    after = STREAM_START,
    signal?: AbortSignal,
    { fresh = false } = {},
  ): AsyncGenerator<StreamEntry[]> {
    let last = after;
    let waitFirst = fresh;
    let disrupted = false;
    let outage: { since: number; failures: number } | undefined;
    let subscription: StreamSubscription | undefined;
    try {
      while (!signal?.aborted) {
        try {
          if (!subscription) {
            // A follower that has read nothing yet skips nothing by reading from the start again.
            if (disrupted && last !== STREAM_START && !(await this.holds(key, last)))
              throw new StreamFollowError('lost');
            disrupted = false;
            const present = waitFirst ? [] : await this.readPresent(key, last);
            waitFirst = false;
            outage = undefined;
            if (present.length === 0) subscription = this.subscribe(key, last);
            else {
              last = present[present.length - 1][0];
              yield present;
            }
            continue;
          }
          const batch = await subscription.take(signal);
          if (!batch) return;
          last = batch[batch.length - 1][0];
          yield batch;
        } catch (error) {
          if (signal?.aborted) return;
          if (error instanceof StreamFollowError || this.closed) throw error;
          subscription = undefined;
          disrupted = true;
          outage ??= { since: Date.now(), failures: 0 };
          if (Date.now() - outage.since >= FOLLOW_RETRY_WINDOW_MS)
            throw new StreamFollowError('unreachable', { cause: error });
          await abortableSleep(backoffDelayMs(outage.failures++, RETRY_BACKOFF), signal ?? NEVER).catch(
            () => undefined,
          );
        }
      }
    } finally {
      subscription?.leave();
    }
  }

  close(): void {
    this.closed = true;
    for (const reader of this.readers) reader.close();
  }

  private subscribe(key: string, last: string): StreamSubscription {
    if (this.closed) throw new Error('the Redis stream readers are closed');
    const reader = this.readers.find((candidate) => candidate.follows(key)) ?? this.leastLoaded() ?? this.addReader();
    const subscription = new StreamSubscription(
      key,
      last,
      () => reader.reread(),
      () => reader.remove(subscription),
    );
    reader.add(subscription);
    return subscription;
  }

  private leastLoaded(): StreamReader | undefined {
    let least: StreamReader | undefined;
    for (const reader of this.readers)
      if (reader.streams < MAX_STREAMS_PER_READER && (!least || reader.streams < least.streams)) least = reader;
    return least;
  }

  private addReader(): StreamReader {
    const reader = new StreamReader(this.open, this.commands, this.wakeKey(this.readers.length));
    this.readers.push(reader);
    return reader;
  }

  /** What the stream already holds after `after` (one batch), read without blocking. */
  private async readPresent(key: string, after: string): Promise<StreamEntry[]> {
    const reply = (await this.commands.xread('COUNT', READ_BATCH, 'STREAMS', key, after)) as
      [string, StreamEntry[]][] | null;
    return reply?.[0][1] ?? [];
  }

  /** Whether the stream still holds the entry last read. */
  private async holds(key: string, last: string): Promise<boolean> {
    return ((await this.commands.xrange(key, last, last, 'COUNT', 1)) as unknown[]).length > 0;
  }
}
