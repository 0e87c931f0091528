/** A Redis stream entry as XREAD and XRANGE return it: its id, then its fields and values. */
export type StreamEntry = [id: string, fields: string[]];

/** The position before a stream's first entry. */
export const STREAM_START = '0-0';

/** How long a follower keeps trying to reach Redis again before it gives up ('unreachable'). */
export const FOLLOW_RETRY_WINDOW_MS = 10_000;

/** Entries asked for per stream in one read. */
export const READ_BATCH = 100;

/**
 * Following a stream cannot go on without possibly skipping entries: the entry last read is gone
 * after a disruption (`lost`), the stream was deleted (`removed`), or Redis stayed unreachable
 * (`unreachable`).
 */
export class StreamFollowError extends Error {
  constructor(
    readonly reason: 'lost' | 'removed' | 'unreachable',
    options?: { cause?: unknown },
  ) {
    super(`stream ${reason}`, options);
    this.name = StreamFollowError.name;
  }
}

/** Orders stream ids (`ms-seq`). */
export function compareStreamIds(a: string, b: string): number {
  const [aMs, aSeq] = a.split('-');
  const [bMs, bSeq] = b.split('-');
  return Number(aMs) - Number(bMs) || Number(aSeq) - Number(bSeq);
}
