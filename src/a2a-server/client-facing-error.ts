import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import type { Logger } from '@nestjs/common';
import type { JsonRpcError } from '../common/json-rpc-envelope';
import { RETRY_AFTER_SECS, ServiceUnavailableError } from './service-unavailable.error';
import { ServerShuttingDownError, TaskStreamInterruptedError } from './task-stream-interrupted.error';

/**
 * The error a client is shown. An internal error is the server's fault, and its own message (a
 * database's, say) is no business of the client's: it is logged with its cause and answered with a
 * generic message, unless its cause is a store outage (ServiceUnavailableError), whose message tells
 * the client to retry, or a call that stopped following its task (TaskStreamInterruptedError), whose
 * message names the task. Any other error is shown as it is.
 */
export function clientFacingError(
  error: JsonRpcError,
  logger: Logger,
  event: string,
  cause: unknown = error,
): JsonRpcError {
  if (error.code !== A2A_ERROR_CODE.INTERNAL_ERROR || cause instanceof TaskStreamInterruptedError) return error;
  if (cause instanceof ServiceUnavailableError) {
    logger.warn({ err: cause.cause }, event);
    return { code: A2A_ERROR_CODE.INTERNAL_ERROR, message: cause.message };
  }
  logger.error({ err: cause }, event);
  return { code: A2A_ERROR_CODE.INTERNAL_ERROR, message: 'Internal error.' };
}

/** How long the client should wait before retrying, when the error's cause is a store outage or a replica shutting down (answered with HTTP 503). */
export function retryAfterSecsOf(cause: unknown): number | undefined {
  return cause instanceof ServiceUnavailableError || cause instanceof ServerShuttingDownError
    ? RETRY_AFTER_SECS
    : undefined;
}
