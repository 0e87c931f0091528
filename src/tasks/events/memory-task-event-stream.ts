import { StreamResponse } from '@a2a-js/sdk';
import { type LiveChannel, MemoryLiveChannel } from './live-channel';
import type { TaskChange } from './task-change';
import {
  CLOSED_STREAM_TTL_SECS,
  type KeptTaskEvent,
  type PublishOptions,
  type TaskEventStream,
  type TaskEventStreamEntry,
  TaskEventStreamInterruptedError,
  UNCLOSED_STREAM_TTL_SECS,
} from './task-event-stream.interface';

interface Stream {
  /**
   * StreamResponse.toJSON of each event (readers decode their own copy, exactly as from Redis), and
   * close markers, which are entries too: a reader stops at the first one after where it began.
   */
  entries: { seq: number; event?: unknown; at: number }[];
  lastSeq: number;
  /** Deleted with its task: readers that have not reached the close are interrupted. */
  removed: boolean;
  readers: number;
  wake: Set<() => void>;
  /** When the sweep drops it (Date.now() time), as Redis expires the key; none until its first publish. */
  expiresAt?: number;
}

/**
 * How often expired streams are dropped: one timer for all of them, since a timer per stream cost
 * every publish a clear and a set, and every stream a timer object kept for its whole lifetime.
 */
const SWEEP_MS = 60_000;

/** Task event streams within one process (embedded mode): same bounds and lifetimes as on Redis. */
export class MemoryTaskEventStream implements TaskEventStream {
  private readonly streams = new Map<string, Stream>();
  private sweeper?: NodeJS.Timeout;

  constructor(
    private readonly maxLen: number,
    private readonly changes: LiveChannel<TaskChange> = new MemoryLiveChannel(),
  ) {}

  async publish(
    taskId: string,
    events: StreamResponse[],
    { close = false, change }: PublishOptions = {},
  ): Promise<string[]> {
    const stream = this.stream(taskId);
    const at = Date.now();
    const ids = events.map((event) => {
      const seq = ++stream.lastSeq;
      stream.entries.push({ seq, event: StreamResponse.toJSON(event), at });
      return String(seq);
    });
    if (stream.entries.length > this.maxLen) stream.entries.splice(0, stream.entries.length - this.maxLen);
    if (close) stream.entries.push({ seq: ++stream.lastSeq, at });
    this.expireAfter(stream, close ? CLOSED_STREAM_TTL_SECS : UNCLOSED_STREAM_TTL_SECS);
    wakeReaders(stream);
    if (change) void this.changes.publish(change);
    return ids;
  }

  readonly start = '0';

  async tail(taskId: string): Promise<string> {
    return String(this.streams.get(taskId)?.lastSeq ?? 0);
  }

  async closure(taskId: string): Promise<{ lastEvent?: StreamResponse } | undefined> {
    const entries = this.streams.get(taskId)?.entries ?? [];
    const marker = entries.at(-1);
    if (!marker || marker.event !== undefined) return undefined;
    const last = entries.at(-2)?.event;
    return { lastEvent: last === undefined ? undefined : StreamResponse.fromJSON(last) };
  }

  async turnStart(taskId: string): Promise<string> {
    const entries = this.streams.get(taskId)?.entries ?? [];
    for (let i = entries.length - 1; i >= 0; i--) {
      if ((entries[i].event as { task?: unknown } | undefined)?.task !== undefined) return String(entries[i].seq - 1);
    }
    return this.start;
  }

  async *read(
    taskId: string,
    { afterId, signal }: { afterId?: string; signal?: AbortSignal } = {},
  ): AsyncGenerator<TaskEventStreamEntry> {
    const stream = this.stream(taskId);
    stream.readers++;
    let after = Number(afterId ?? 0) || 0;
    try {
      while (!signal?.aborted) {
        for (const { seq, event } of stream.entries.filter((entry) => entry.seq > after)) {
          if (event === undefined) return;
          after = seq;
          yield { id: String(seq), event: StreamResponse.fromJSON(event) };
          if (signal?.aborted) return;
        }
        if (stream.removed) throw new TaskEventStreamInterruptedError(taskId, 'the stream was removed with its task');
        // What was published while an entry was being handed out woke nobody: it is read before waiting.
        if (stream.lastSeq <= after) await nextChange(stream, signal);
      }
    } finally {
      stream.readers--;
      if (stream.readers === 0 && stream.lastSeq === 0) this.drop(taskId, stream);
    }
  }

  async kept(taskId: string): Promise<KeptTaskEvent[]> {
    return (this.streams.get(taskId)?.entries ?? [])
      .filter((entry) => entry.event !== undefined)
      .map(({ seq, event, at }) => ({ id: String(seq), event: StreamResponse.fromJSON(event), at: new Date(at) }));
  }

  async remove(taskIds: string[]): Promise<void> {
    for (const taskId of taskIds) {
      const stream = this.streams.get(taskId);
      if (!stream) continue;
      stream.removed = true;
      this.drop(taskId, stream);
      wakeReaders(stream);
    }
  }

  private stream(taskId: string): Stream {
    let stream = this.streams.get(taskId);
    if (!stream) {
      stream = { entries: [], lastSeq: 0, removed: false, readers: 0, wake: new Set() };
      this.streams.set(taskId, stream);
    }
    return stream;
  }

  private expireAfter(stream: Stream, secs: number): void {
    stream.expiresAt = Date.now() + secs * 1000;
    this.sweeper ??= setInterval(() => this.sweep(), SWEEP_MS).unref();
  }

  private sweep(): void {
    const now = Date.now();
    for (const [taskId, stream] of this.streams)
      if (stream.expiresAt !== undefined && stream.expiresAt <= now) this.streams.delete(taskId);
  }

  private drop(taskId: string, stream: Stream): void {
    if (this.streams.get(taskId) === stream) this.streams.delete(taskId);
  }
}

function wakeReaders(stream: Stream): void {
  for (const wake of stream.wake) wake();
}

function nextChange(stream: Stream, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.wake.delete(done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    stream.wake.add(done);
    signal?.addEventListener('abort', done, { once: true });
  });
}
