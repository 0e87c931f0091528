/** Resolves once the event loop has moved on: what the current I/O events and their promises set off has run by then. */
export function afterThisTick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
