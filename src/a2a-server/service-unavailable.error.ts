import { A2AError } from '@a2a-js/sdk/errors';
import { RETRY_AFTER_SECS } from '../common/retry-after';

export { RETRY_AFTER_SECS };

/**
 * A request that could not be served because a store it needs (Redis, Postgres) is unreachable:
 * nothing of it was kept, and the client should send it again. JSON-RPC answers -32603 with this
 * message and HTTP 503 with `Retry-After` (json-rpc-exception.filter.ts); the SDK's HTTP+JSON binding
 * answers HTTP 503, as it reads `transport` and `statusCode`, and rest-exception.filter.ts adds
 * `Retry-After`.
 */
export class ServiceUnavailableError extends A2AError {
  override readonly reason = 'UNAVAILABLE';
  readonly transport = 'rest';
  readonly statusCode = 503;

  constructor(what: string, cause: unknown) {
    super({
      message: `${what}: the service is temporarily unavailable. Send the request again in ${RETRY_AFTER_SECS} seconds.`,
      cause,
      metadata: { retryAfterSecs: String(RETRY_AFTER_SECS) },
    });
  }
}
