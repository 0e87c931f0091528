import type { FastifyInstance } from 'fastify';
import { answerRefusal, type RequestRefusal } from '../common/request-error.filter';
import { RETRY_AFTER_SECS } from '../common/retry-after';

const SHUTTING_DOWN: RequestRefusal = {
  status: 503,
  message: `This server is shutting down: send the request again in ${RETRY_AFTER_SECS} seconds, to another replica if there is one.`,
  retryAfterSecs: RETRY_AFTER_SECS,
};

/**
 * From the moment the HTTP server begins to close (calls in flight are drained meanwhile), a new
 * request is refused 503 with `Retry-After`, in its route's protocol (a JSON-RPC error on the A2A
 * JSON-RPC routes and `/mcp`), as other refusals are: Fastify's own (`return503OnClosing`) is a
 * bare body without `Retry-After`. Register it before any other `preClose` hook.
 */
export function refuseRequestsWhileClosing(fastify: FastifyInstance): void {
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  // Answered without calling `done`: the request goes no further.
  fastify.addHook('onRequest', (request, reply, done) =>
    closing ? void answerRefusal(request, reply, SHUTTING_DOWN) : done(),
  );
}
