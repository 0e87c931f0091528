import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import type { JsonRpcRefusal } from './json-rpc-envelope';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A body whose bytes are not UTF-8: JSON cannot be read from it, so JSON-RPC answers a parse error. */
export class InvalidUtf8BodyError extends Error {
  readonly statusCode = 400;
  readonly jsonRpc: JsonRpcRefusal = { code: A2A_ERROR_CODE.PARSE_ERROR, id: null };

  constructor() {
    super('request body is not valid UTF-8');
    this.name = 'InvalidUtf8BodyError';
  }
}

/**
 * The body as text. Read as bytes and decoded here: Fastify's own string reading replaces bad bytes,
 * and then refuses the body for a length that no longer matches Content-Length, which says nothing
 * of the real fault.
 */
export function decodeUtf8Body(body: Buffer): string {
  try {
    return strictUtf8.decode(body);
  } catch {
    throw new InvalidUtf8BodyError();
  }
}
