import { READ_BATCH, type StreamEntry } from './stream-entries';

/**
 * One follower's place on a multiplexed reader: the batches read for it, waiting to be taken. A
 * follower with a full batch waiting is left out of the reads until it takes it (`onDrained`).
 */
export class StreamSubscription {
  private readonly batches: StreamEntry[][] = [];
  private waiting = 0;
  private failure?: Error;
  private wake?: () => void;

  constructor(
    readonly key: string,
    /** The id of the last entry read for this follower. */
    public last: string,
    private readonly onDrained: (subscription: StreamSubscription) => void,
    readonly leave: () => void,
  ) {}

  get full(): boolean {
    return this.waiting >= READ_BATCH;
  }

  deliver(entries: StreamEntry[]): void {
    this.batches.push(entries);
    this.waiting += entries.length;
    this.last = entries[entries.length - 1][0];
    this.wake?.();
  }

  /** Ends the subscription: `take` throws `error` once the batches before it are taken. */
  fail(error: Error): void {
    this.failure ??= error;
    this.wake?.();
  }

  /** The next batch, once there is one; undefined when `signal` aborts first. */
  async take(signal?: AbortSignal): Promise<StreamEntry[] | undefined> {
    while (this.batches.length === 0) {
      if (this.failure) throw this.failure;
      if (signal?.aborted) return undefined;
      let wake!: () => void;
      await new Promise<void>((resolve) => {
        wake = this.wake = resolve;
        signal?.addEventListener('abort', wake, { once: true });
      });
      signal?.removeEventListener('abort', wake);
      this.wake = undefined;
    }
    const wasFull = this.full;
    const batch = this.batches.shift()!;
    this.waiting -= batch.length;
    if (wasFull && !this.full) this.onDrained(this);
    return batch;
  }
}
