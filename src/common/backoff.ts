export interface BackoffSettings {
  baseMs: number;
  maxMs: number;
}

/**
 * Wait before retry number `failures` (0 for the first): exponential from `baseMs` up to `maxMs`,
 * with jitter over the upper half so that processes that failed together do not retry together.
 */
export function backoffDelayMs(
  failures: number,
  { baseMs, maxMs }: BackoffSettings,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** failures);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
