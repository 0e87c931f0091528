import type Redis from 'ioredis';
import { afterThisTick } from '../common/after-this-tick';
import { compareStreamIds, READ_BATCH, STREAM_START, type StreamEntry, StreamFollowError } from './stream-entries';
import { type StreamSubscription } from './stream-subscription';

/** A blocked read returns this often even when nothing arrives, so a dead connection is noticed and removed streams are looked for. */
export const BLOCK_MS = 5_000;
/** How often the streams followed are checked for having been deleted (a deleted stream does not end a blocked XREAD). */
const REMOVAL_CHECK_MS = 5_000;
/** Wake-up streams hold one entry and go away after this when unused. */
const WAKE_KEY_TTL_MS = 3_600_000;

type StreamReply = [key: string, entries: StreamEntry[]][] | null;

/**
 * One connection running one blocking `XREAD ... STREAMS k1 k2 ... id1 id2 ...` over every stream
 * its followers follow, dispatching what it reads to them by key. Following a new stream needs the
 * read issued again: the reader also reads a wake-up stream of its own, which `wake` appends to.
 * That is race-free, unlike CLIENT UNBLOCK (which is lost if it reaches Redis before the XREAD
 * blocks): the XREAD asks for wake-up entries after the last one it saw, so one appended before it
 * arrives returns it at once. A short block timeout instead would cost a read of every key each time
 * and delay new followers by up to the timeout. Leaving needs no new read: entries for a stream
 * nobody follows are dropped. The loop runs only while someone follows.
 */
export class StreamReader {
  private readonly followed = new Map<string, Set<StreamSubscription>>();
  private connection?: Redis;
  private running = false;
  /** Whether an XREAD is under way, and whether it was already asked to return. */
  private blocked = false;
  private woken = false;
  private wakeLast = STREAM_START;
  /** Counts connection losses: a reply that spans one is dropped (its followers were told to check their streams). */
  private epoch = 0;
  private lastRemovalCheck = Date.now();
  private closed = false;

  constructor(
    private readonly open: () => Redis,
    private readonly commands: Redis,
    private readonly wakeKey: string,
  ) {}

  get streams(): number {
    return this.followed.size;
  }

  get followers(): number {
    let count = 0;
    for (const subscriptions of this.followed.values()) count += subscriptions.size;
    return count;
  }

  follows(key: string): boolean {
    return this.followed.has(key);
  }

  add(subscription: StreamSubscription): void {
    let subscriptions = this.followed.get(subscription.key);
    if (!subscriptions) this.followed.set(subscription.key, (subscriptions = new Set()));
    subscriptions.add(subscription);
    this.reread();
  }

  remove(subscription: StreamSubscription): void {
    const subscriptions = this.followed.get(subscription.key);
    if (!subscriptions?.delete(subscription)) return;
    if (subscriptions.size === 0) this.followed.delete(subscription.key);
  }

  /** Makes the reader read again with its followers' positions as they are now. */
  reread(): void {
    if (!this.running) void this.run();
    else if (this.blocked && !this.woken) {
      this.woken = true;
      void this.commands
        .pipeline()
        .xadd(this.wakeKey, 'MAXLEN', 1, '*', 'wake', '1')
        .pexpire(this.wakeKey, WAKE_KEY_TTL_MS)
        .exec()
        .catch(() => undefined);
    }
  }

  close(): void {
    this.closed = true;
    this.connection?.disconnect();
  }

  private async run(): Promise<void> {
    this.running = true;
    const connection = (this.connection ??= this.connect());
    try {
      while (this.followed.size > 0 && !this.closed) {
        if (Date.now() - this.lastRemovalCheck >= REMOVAL_CHECK_MS) await this.failRemoved(connection);
        const [keys, ids] = this.positions();
        const epoch = this.epoch;
        this.woken = false;
        this.blocked = true;
        let reply: StreamReply;
        try {
          reply = (await connection.xread(
            'COUNT',
            READ_BATCH,
            'BLOCK',
            BLOCK_MS,
            'STREAMS',
            this.wakeKey,
            ...keys,
            this.wakeLast,
            ...ids,
          )) as StreamReply;
        } finally {
          this.blocked = false;
        }
        if (epoch === this.epoch) this.dispatch(reply);
        // Followers whose stream just ended leave, and followers added meanwhile join, before the next
        // read: it then needs no wake-up for them, and is not issued at all once nobody follows.
        await afterThisTick();
      }
    } catch (error) {
      // Unanswered (a Redis that froze, or a peer gone without closing): a new connection, maybe to a
      // Redis that answers. Closing this one disrupts the followers.
      if (isCommandTimeout(error)) connection.disconnect(true);
      else this.disrupt(error as Error);
    } finally {
      this.running = false;
    }
  }

  private connect(): Redis {
    const connection = this.open();
    // ioredis sends a pending XREAD again after reconnecting, but entries may have been lost with the
    // connection (a Redis restart): every follower checks its stream before following it again.
    connection.on('close', () => {
      this.epoch++;
      // A wake-up sent before a Redis restart may be gone with its data.
      this.woken = false;
      this.disrupt(new Error('the connection to Redis was lost'));
    });
    return connection;
  }

  /** The streams to read and the position to read each from: the earliest of its followers that have room. */
  private positions(): [keys: string[], ids: string[]] {
    const keys: string[] = [];
    const ids: string[] = [];
    for (const [key, subscriptions] of this.followed) {
      let from: string | undefined;
      for (const subscription of subscriptions) {
        if (!subscription.full && (from === undefined || compareStreamIds(subscription.last, from) < 0))
          from = subscription.last;
      }
      if (from === undefined) continue;
      keys.push(key);
      ids.push(from);
    }
    return [keys, ids];
  }

  private dispatch(reply: StreamReply): void {
    for (const [key, entries] of reply ?? []) {
      if (key === this.wakeKey) {
        this.wakeLast = entries[entries.length - 1][0];
        continue;
      }
      for (const subscription of this.followed.get(key) ?? []) {
        const after = entries.findIndex(([id]) => compareStreamIds(id, subscription.last) > 0);
        if (after >= 0) subscription.deliver(after === 0 ? entries : entries.slice(after));
      }
    }
  }

  /** Ends the followers of streams that were deleted (their tasks evicted, or expired). A stream not yet written to is waited on. */
  private async failRemoved(connection: Redis): Promise<void> {
    this.lastRemovalCheck = Date.now();
    const keys = [...this.followed]
      .filter(([, subscriptions]) => [...subscriptions].some(({ last }) => last !== STREAM_START))
      .map(([key]) => key);
    if (keys.length === 0 || (await connection.exists(...keys)) === keys.length) return;
    const pipeline = connection.pipeline();
    for (const key of keys) pipeline.exists(key);
    const replies = (await pipeline.exec()) ?? [];
    keys.forEach((key, i) => {
      if (replies[i]?.[1] !== 0) return;
      for (const subscription of this.followed.get(key) ?? []) {
        if (subscription.last === STREAM_START) continue;
        subscription.fail(new StreamFollowError('removed'));
        this.remove(subscription);
      }
    });
  }

  /** Hands every follower `error`: each checks its stream and follows it again (or gives up). */
  private disrupt(error: Error): void {
    for (const subscriptions of this.followed.values())
      for (const subscription of subscriptions) subscription.fail(error);
    this.followed.clear();
  }
}

/** ioredis's error for a command that got no reply within its `commandTimeout`. */
function isCommandTimeout(error: unknown): boolean {
  return (error as Error).message === 'Command timed out';
}
