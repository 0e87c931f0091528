import { toLegacyHTTPError } from '@a2a-js/sdk/compat/v0_3/server';
import { A2A_ERROR_CODE, A2AError, RequestMalformedError, restStatusFor, toRestErrorBody } from '@a2a-js/sdk/errors';
import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { FastifyReply } from 'fastify';
import { clientFacingError, retryAfterSecsOf } from './client-facing-error';
import { JsonRpcFailure } from './json-rpc-failure';
import { RETRY_AFTER_SECS } from './service-unavailable.error';
import type { SendDialect } from './validation/send-params.validator';

const logger = new Logger('A2aRest');

/** HTTP status of a JSON-RPC error when it is answered as plain REST. */
const STATUS_OF_CODE: Record<number, number> = {
  [A2A_ERROR_CODE.TASK_NOT_FOUND]: 404,
  [A2A_ERROR_CODE.TASK_NOT_CANCELABLE]: 409,
  [A2A_ERROR_CODE.CONTENT_TYPE_NOT_SUPPORTED]: 415,
  [A2A_ERROR_CODE.INTERNAL_ERROR]: 500,
};

/**
 * The A2A HTTP+JSON face's errors. The SDK's express router answers the calls it handles in the
 * binding's forms (v1.0 and v0.3); what fails before it is answered here in the same forms (an
 * A2AError, as `{ error: { code, status, message } }`), and the seeds' REST routes, which call the
 * v0.3 JSON-RPC handler, answer `{ error, code, message }` with an HTTP status of the error code, or
 * 503 with `Retry-After` for a store outage.
 */
@Catch(A2AError, JsonRpcFailure)
export class RestExceptionFilter implements ExceptionFilter<A2AError | JsonRpcFailure> {
  catch(exception: A2AError | JsonRpcFailure, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    if (reply.sent) return;
    if (exception instanceof JsonRpcFailure) return answerAsSeedRest(reply, exception);
    const status = restStatusFor(exception);
    void reply.code(status).send(toRestErrorBody(exception, status));
  }
}

function answerAsSeedRest(reply: FastifyReply, { response, cause }: JsonRpcFailure): void {
  const { code, message } = clientFacingError(response.error, logger, 'seed A2A request failed', cause);
  const retryAfterSecs = retryAfterSecsOf(cause);
  if (retryAfterSecs !== undefined) reply.header('retry-after', String(retryAfterSecs));
  void reply
    .code(retryAfterSecs !== undefined ? 503 : (STATUS_OF_CODE[code] ?? 400))
    .send({ error: errorName(code), code, message });
}

function errorName(code: number): string {
  const entry = Object.entries(A2A_ERROR_CODE).find(([, value]) => value === code);
  return entry ? entry[0].toLowerCase() : 'error';
}

/*
 * The answers of an agent's express app (rest-app.ts) around the SDK's router: it runs on a
 * hijacked reply, out of the filter's reach.
 */

/** The 400 body of a send whose params are malformed, in the dialect's form. */
export function malformedSendBody(dialect: SendDialect, problem: string): unknown {
  const error = new RequestMalformedError(problem);
  return dialect === 'v1' ? toRestErrorBody(error, 400) : toLegacyHTTPError(error);
}

/**
 * The SDK answers ServiceUnavailableError itself, with HTTP 503 (its `statusCode`) and no headers:
 * a 503 then also says when to retry.
 */
export const retryAfterWhenUnavailable: RequestHandler = (_req, res, next) => {
  const status = res.status.bind(res);
  res.status = (code: number) => {
    if (code === 503) res.setHeader('retry-after', String(RETRY_AFTER_SECS));
    return status(code);
  };
  next();
};

/** JSON, where express would answer an unknown route in HTML. */
export const noRestRoute: RequestHandler = (req, res) => {
  res.status(404).json({
    error: { code: 404, status: 'NOT_FOUND', message: `No A2A HTTP+JSON route for ${req.method} ${req.path}` },
  });
};

/** JSON, where express would answer an unexpected error in HTML. */
export const restInternalError: ErrorRequestHandler = (error, req, res, _next) => {
  logger.error({ err: error, method: req.method, path: req.path }, 'A2A HTTP+JSON request failed');
  if (res.headersSent) return void res.end();
  res.status(500).json({ error: { code: 500, status: 'INTERNAL', message: 'Internal error.' } });
};
