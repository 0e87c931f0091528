import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';

export type JsonRpcId = string | number | null;

export interface JsonRpcError {
  code: number;
  message: string;
}

/**
 * How to answer a body refused while it was read, on a JSON-RPC route: an error raised then may carry
 * it as `jsonRpc`, with the request's id when the body could be read far enough to know it.
 */
export interface JsonRpcRefusal {
  code: number;
  id: JsonRpcId;
}

/** The request's id when it is one JSON-RPC allows, else null (as the spec answers an unreadable id). */
export function requestId(body: unknown): JsonRpcId {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/**
 * What makes `body` not a JSON-RPC 2.0 request, as the -32600 error to answer, or undefined. The
 * SDK's handlers would parse a JSON string body as a request, echo any id back (even one that cannot
 * be serialized), and answer a malformed envelope with -32602.
 */
export function envelopeError(body: unknown): JsonRpcError | undefined {
  const invalid = (message: string) => ({ code: A2A_ERROR_CODE.INVALID_REQUEST, message });
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return invalid(
      Array.isArray(body)
        ? 'Batch requests are not supported: send one JSON-RPC request object.'
        : 'The request must be a JSON-RPC request object.',
    );
  }
  const request = body as Record<string, unknown>;
  if (request.jsonrpc !== '2.0') return invalid('jsonrpc must be "2.0".');
  if ('id' in request && request.id !== null && requestId(request) === null)
    return invalid('id must be a string, a number or null.');
  if (typeof request.method !== 'string' || request.method === '') return invalid('method must be a non-empty string.');
  if (
    request.params !== undefined &&
    (typeof request.params !== 'object' || request.params === null || Array.isArray(request.params))
  ) {
    return { code: A2A_ERROR_CODE.INVALID_PARAMS, message: 'params must be an object.' };
  }
  return undefined;
}
