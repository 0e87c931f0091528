import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import { type JsonRpcRefusal, requestId } from './json-rpc-envelope';

/**
 * Parsed JSON can be nested deeper than code that later recurses through it (protobuf's `fromJSON`,
 * `JSON.stringify`, `String()` of an array) has stack for. Walks iteratively, and allocates only for
 * nested objects: it runs on every request body before anything else looks at it.
 */
export function jsonDepthExceeds(value: unknown, limit: number): boolean {
  const pending: object[] = [];
  const depths: number[] = [];
  const visit = (item: unknown, depth: number) => {
    if (typeof item !== 'object' || item === null) return;
    pending.push(item);
    depths.push(depth);
  };
  visit(value, 0);
  while (pending.length > 0) {
    const current = pending.pop()!;
    const depth = depths.pop()!;
    if (depth >= limit) return true;
    if (Array.isArray(current)) {
      for (const item of current) visit(item, depth + 1);
    } else {
      // JSON.parse makes plain objects: every enumerable key is their own.
      for (const key in current) visit((current as Record<string, unknown>)[key], depth + 1);
    }
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
