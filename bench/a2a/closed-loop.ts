/**
 * A closed-loop load for what autocannon cannot drive: `callers` loops, each making one call at a
 * time until the duration is up (a call started before the deadline is awaited and counted). A call
 * checks its own answer and returns its timing, or throws a FailedCall that says how it counts.
 */
import { performance } from 'node:perf_hooks';
import type { LoadResult } from './load';

type ErrorKind = 'non2xx' | 'badBodies' | 'transportErrors';

/** A call that was answered wrongly or not at all: which error count it adds to, and what the report shows. */
export class FailedCall extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/** The counts of a LoadResult, and each successful call's timing for the caller's percentiles. */
export interface ClosedLoopResult<T> extends Pick<LoadResult, 'reqPerSec' | 'requests' | ErrorKind | 'sample'> {
  timings: T[];
}

export async function closedLoop<T>(
  callers: number,
  durationSecs: number,
  call: (caller: number) => Promise<T>,
): Promise<ClosedLoopResult<T>> {
  const timings: T[] = [];
  const errors: Record<ErrorKind, number> = { non2xx: 0, badBodies: 0, transportErrors: 0 };
  let sample: string | undefined;
  const started = performance.now();
  const deadline = started + durationSecs * 1000;
  await Promise.all(
    Array.from({ length: callers }, async (_, caller) => {
      while (performance.now() < deadline) {
        try {
          timings.push(await call(caller));
        } catch (error) {
          const failed =
            error instanceof FailedCall
              ? error
              : new FailedCall('transportErrors', `request failed: ${(error as Error).message}`);
          errors[failed.kind]++;
          sample ??= failed.message;
        }
      }
    }),
  );
  const elapsedSecs = (performance.now() - started) / 1000;
  const requests = timings.length + errors.non2xx + errors.badBodies + errors.transportErrors;
  return { timings, reqPerSec: requests / elapsedSecs, requests, ...errors, sample };
}

/** The value below which a fraction `p` of the sorted values lie. */
export function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
}
