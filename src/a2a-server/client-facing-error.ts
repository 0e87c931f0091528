import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import type { Logger } from '@nestjs/common';
import type { JsonRpcError } from '../common/json-rpc-envelope';

/**
 * The error a client is shown. An internal error is the server's fault, and its own message (a
 * database's, say) is no business of the client's: it is logged with its cause and answered with a
 * generic message. Any other error is shown as it is.
 */
export function clientFacingError(error: JsonRpcError, logger: Logger, event: string, cause: unknown = error): JsonRpcError {
  if (error.code !== A2A_ERROR_CODE.INTERNAL_ERROR) return error;
  logger.error({ err: cause }, event);
  return { code: A2A_ERROR_CODE.INTERNAL_ERROR, message: 'Internal error.' };
}
