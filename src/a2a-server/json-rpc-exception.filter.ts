import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { JsonRpcId } from '../common/json-rpc-envelope';
import { refusalAsJsonRpc } from '../common/request-error.filter';
import { clientFacingError, retryAfterSecsOf } from './client-facing-error';
import { JsonRpcFailure, jsonRpcErrorOf } from './json-rpc-failure';

const logger = new Logger('A2aJsonRpc');

/**
 * The A2A JSON-RPC routes' errors. JSON-RPC errors go with HTTP 200, as the SDK's own server answers
 * them; an internal error is a 500 (with a generic message unless it names what to do, see
 * clientFacingError), and a store outage a 503 with `Retry-After`.
 */
@Catch(JsonRpcFailure)
export class JsonRpcExceptionFilter implements ExceptionFilter<JsonRpcFailure> {
  catch({ response, cause }: JsonRpcFailure, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    if (reply.sent) return;
    const error = clientFacingError(response.error, logger, 'JSON-RPC request failed', cause);
    const retryAfterSecs = retryAfterSecsOf(cause);
    if (retryAfterSecs !== undefined) reply.header('retry-after', String(retryAfterSecs));
    const status = retryAfterSecs !== undefined ? 503 : error.code === A2A_ERROR_CODE.INTERNAL_ERROR ? 500 : 200;
    void reply.code(status).send({ ...response, error });
  }
}

/** An error that ends a JSON-RPC stream, as the stream's last event. */
export function jsonRpcStreamError(id: JsonRpcId, legacy: boolean): (error: unknown) => unknown {
  return (error) => ({
    jsonrpc: '2.0',
    id,
    error: clientFacingError(jsonRpcErrorOf(error, legacy), logger, 'JSON-RPC stream failed', error),
  });
}

/** Bodies refused before the controller ran, as the SDK's JSON-RPC server answers them: -32700 and -32005 with HTTP 200, HTTP 413 with -32600. */
export const jsonRpcRefusal = refusalAsJsonRpc({
  400: { code: A2A_ERROR_CODE.PARSE_ERROR, httpStatus: 200 },
  415: { code: A2A_ERROR_CODE.CONTENT_TYPE_NOT_SUPPORTED, httpStatus: 200 },
  413: { code: A2A_ERROR_CODE.INVALID_REQUEST, httpStatus: 413 },
});
