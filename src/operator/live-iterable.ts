/**
 * Messages from `subscribe`'s listener as an async iterable, until `signal` aborts, which also ends
 * the subscription: what a live view streams. The subscription is made at once, so a caller that
 * has awaited `ready` misses nothing published after.
 */
export class LiveIterable<T> implements AsyncIterable<T> {
  private readonly queued: T[] = [];
  private wake?: () => void;
  readonly ready: Promise<() => void>;

  constructor(
    subscribe: (listener: (message: T) => void) => Promise<() => void>,
    private readonly signal: AbortSignal,
  ) {
    this.ready = subscribe((message) => this.push(message));
    // Also when the iteration never began (the client left first): the subscription ends with the signal.
    signal.addEventListener(
      'abort',
      () => {
        this.wake?.();
        void this.ready.then(
          (stop) => stop(),
          () => undefined,
        );
      },
      { once: true },
    );
  }

  push(message: T): void {
    this.queued.push(message);
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    await this.ready;
    while (!this.signal.aborted) {
      const next = this.queued.shift();
      if (next !== undefined) yield next;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}
