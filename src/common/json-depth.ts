/**
 * Parsed JSON can be nested deeper than code that later recurses through it (protobuf's `fromJSON`,
 * `JSON.stringify`, `String()` of an array) has stack for. Walks iteratively.
 */
export function jsonDepthExceeds(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= limit) return true;
    for (const item of Array.isArray(current) ? current : Object.values(current)) pending.push([item, depth + 1]);
  }
  return false;
}

/** A body refused for its nesting; it was valid JSON, so a JSON-RPC answer can still carry its id. */
export class JsonTooDeepError extends Error {
  readonly statusCode = 400;

  constructor(
    readonly limit: number,
    readonly body: unknown,
  ) {
    super(`JSON nested deeper than ${limit} levels`);
  }
}
