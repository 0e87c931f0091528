import { UnauthenticatedUser } from '@a2a-js/sdk/server';
import { restHandler } from '@a2a-js/sdk/server/express';
import express, { type Express, type RequestHandler } from 'express';
import { callContextFor, endpointContextBuilder, isLegacyRequest } from './call-context';
import { malformedSendBody, noRestRoute, restInternalError, retryAfterWhenUnavailable } from './rest-exception.filter';
import type { SwitchboardRequestHandler } from './switchboard-request-handler';
import { withJsonFieldNames } from './validation/json-field-names';
import { type SendDialect, sendParamsProblem } from './validation/send-params.validator';

/** v1.0's send paths, with an optional tenant segment; v0.3's live under `/v1/`. */
const SEND_PATHS = ['/message\\:send', '/message\\:stream', '/:tenant/message\\:send', '/:tenant/message\\:stream'];
const LEGACY_SEND_PATHS = ['/v1/message\\:send', '/v1/message\\:stream'];

/**
 * One agent's HTTP+JSON binding: the SDK's express router, behind checks of send bodies (matched by
 * express itself, so that case, trailing slashes and tenants route as the SDK's own routes do) and
 * ahead of JSON answers for unknown routes and unexpected errors; the error forms are the HTTP+JSON
 * face's (rest-exception.filter.ts).
 */
export function restApp(
  handler: SwitchboardRequestHandler,
  taskAgents: readonly string[],
  legacyCompat: boolean,
): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(queryWithJsonNames);
  if (legacyCompat) {
    const legacyOnly: RequestHandler = (req, _res, next) =>
      next(isLegacyRequest(req.headers, true) ? undefined : 'route');
    app.post(LEGACY_SEND_PATHS, legacyOnly, checkSend('v03-rest'));
  }
  app.post(SEND_PATHS, checkSend('v1'));
  app.use(retryAfterWhenUnavailable);
  app.use(
    restHandler({
      requestHandler: handler,
      legacyCompat: { enabled: legacyCompat },
      // The bearer guard has run on the Fastify request; the principal rides on the raw request.
      userBuilder: async (req) => callContextFor(req, req.headers, false).user ?? new UnauthenticatedUser(),
      contextBuilder: endpointContextBuilder(taskAgents),
    }),
  );
  app.use(noRestRoute);
  app.use(restInternalError);
  return app;
}

/** Checks a send's body once: v0.3's `/v1/message:send` also matches v1.0's tenant route, checked after it. */
function checkSend(dialect: SendDialect): RequestHandler {
  return (req, res, next) => {
    if (res.locals.sendChecked) return next();
    const problem = sendParamsProblem(dialect, req.body, '');
    if (problem) return void res.status(400).json(malformedSendBody(dialect, problem));
    res.locals.sendChecked = true;
    next();
  };
}

/**
 * Query parameters are fields too (`?history_length=`), which the SDK reads by their JSON names.
 * Fastify has parsed them already, onto the raw request, where express would otherwise parse them.
 */
const queryWithJsonNames: RequestHandler = (req, _res, next) => {
  Object.defineProperty(req, 'query', {
    value: withJsonFieldNames(req.query, {}),
    configurable: true,
    enumerable: true,
    writable: true,
  });
  next();
};
