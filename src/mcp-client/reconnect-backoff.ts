const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;

/**
 * Wait before reconnect attempt number `failures` (0 for the first): exponential from 0.5 s up to
 * 30 s, with jitter over the upper half so that replicas that lost a server together do not
 * return together.
 */
export function reconnectDelayMs(failures: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** failures);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
