import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import { JsonRpcRefusal, requestId } from './json-rpc-envelope';

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

/** A body refused for its nesting. It was valid JSON: a JSON-RPC answer is an invalid request, with its id. */
export class JsonTooDeepError extends Error {
  readonly statusCode = 400;
  readonly jsonRpc: JsonRpcRefusal;

  constructor(
    readonly limit: number,
    body: unknown,
  ) {
    super(`JSON nested deeper than ${limit} levels`);
    this.jsonRpc = { code: A2A_ERROR_CODE.INVALID_REQUEST, id: requestId(body) };
  }
}
