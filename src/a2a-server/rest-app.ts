import { toLegacyHTTPError } from '@a2a-js/sdk/compat/v0_3/server';
import { RequestMalformedError, toRestErrorBody } from '@a2a-js/sdk/errors';
import { UnauthenticatedUser } from '@a2a-js/sdk/server';
import { restHandler } from '@a2a-js/sdk/server/express';
import { Logger } from '@nestjs/common';
import express, { ErrorRequestHandler, Express, RequestHandler } from 'express';
import { callContextFor, isLegacyRequest } from './call-context';
import { RETRY_AFTER_SECS } from './service-unavailable.error';
import type { SwitchboardRequestHandler } from './switchboard-request-handler';
import { withJsonFieldNames } from './validation/json-field-names';
import { SendDialect, sendParamsProblem } from './validation/send-params.validator';

/** v1.0's send paths, with an optional tenant segment; v0.3's live under `/v1/`. */
const SEND_PATHS = ['/message\\:send', '/message\\:stream', '/:tenant/message\\:send', '/:tenant/message\\:stream'];
const LEGACY_SEND_PATHS = ['/v1/message\\:send', '/v1/message\\:stream'];

const logger = new Logger('A2aRest');

/**
 * One agent's HTTP+JSON binding: the SDK's express router, behind checks of send bodies (matched by
 * express itself, so that case, trailing slashes and tenants route as the SDK's own routes do) and
 * ahead of JSON answers for unknown routes and unexpected errors, which express would answer in HTML.
 */
export function restApp(handler: SwitchboardRequestHandler, legacyCompat: boolean): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(queryWithJsonNames);
  if (legacyCompat) {
    const legacyOnly: RequestHandler = (req, _res, next) => next(isLegacyRequest(req.headers, true) ? undefined : 'route');
    app.post(LEGACY_SEND_PATHS, legacyOnly, checkSend('v03-rest', (problem) => toLegacyHTTPError(new RequestMalformedError(problem))));
  }
  app.post(SEND_PATHS, checkSend('v1', (problem) => toRestErrorBody(new RequestMalformedError(problem), 400)));
  app.use(retryAfterWhenUnavailable);
  app.use(
    restHandler({
      requestHandler: handler,
      legacyCompat: { enabled: legacyCompat },
      // The bearer guard has run on the Fastify request; the principal rides on the raw request.
      userBuilder: async (req) => callContextFor(req, req.headers, false).user ?? new UnauthenticatedUser(),
    }),
  );
  app.use(notFound);
  app.use(internalError);
  return app;
}

/** Checks a send's body once: v0.3's `/v1/message:send` also matches v1.0's tenant route, checked after it. */
function checkSend(dialect: SendDialect, errorBody: (problem: string) => unknown): RequestHandler {
  return (req, res, next) => {
    if (res.locals.sendChecked) return next();
    const problem = sendParamsProblem(dialect, req.body, '');
    if (problem) return void res.status(400).json(errorBody(problem));
    res.locals.sendChecked = true;
    next();
  };
}

/**
 * Query parameters are fields too (`?history_length=`), which the SDK reads by their JSON names.
 * Fastify has parsed them already, onto the raw request, where express would otherwise parse them.
 */
const queryWithJsonNames: RequestHandler = (req, _res, next) => {
  Object.defineProperty(req, 'query', { value: withJsonFieldNames(req.query, {}), configurable: true, enumerable: true, writable: true });
  next();
};

/**
 * The SDK answers ServiceUnavailableError itself, with HTTP 503 (its `statusCode`) and no headers:
 * a 503 then also says when to retry.
 */
const retryAfterWhenUnavailable: RequestHandler = (_req, res, next) => {
  const status = res.status.bind(res);
  res.status = (code: number) => {
    if (code === 503) res.setHeader('retry-after', String(RETRY_AFTER_SECS));
    return status(code);
  };
  next();
};

const notFound: RequestHandler = (req, res) => {
  res.status(404).json({ error: { code: 404, status: 'NOT_FOUND', message: `No A2A HTTP+JSON route for ${req.method} ${req.path}` } });
};

const internalError: ErrorRequestHandler = (error, req, res, _next) => {
  logger.error({ err: error, method: req.method, path: req.path }, 'A2A HTTP+JSON request failed');
  if (res.headersSent) return void res.end();
  res.status(500).json({ error: { code: 500, status: 'INTERNAL', message: 'Internal error.' } });
};
