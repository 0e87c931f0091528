import { backoffDelayMs } from '../common/backoff';

const RECONNECT_BACKOFF = { baseMs: 500, maxMs: 30_000 };

/** Wait before reconnect attempt number `failures` (0 for the first): 0.5 s doubling up to 30 s, jittered. */
export function reconnectDelayMs(failures: number, random: () => number = Math.random): number {
  return backoffDelayMs(failures, RECONNECT_BACKOFF, random);
}
