import { A2A_CONTENT_TYPE } from '@a2a-js/sdk';
import { HttpAdapterHost, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { jsonDepthExceeds, JsonTooDeepError } from './common/json-depth';
import { decodeUtf8Body } from './common/utf8-body';
import { RequestErrorFilter } from './common/request-error.filter';
import { closeUnusedConnections } from './common/unused-connections';
import type { SwitchboardConfig } from './config/config.schema';
import { AppLogger } from './logging/app-logger';
import { requestId, REQUEST_ID_HEADER } from './logging/request-id';
import { registerRequestSpans } from './logging/request-spans';
import { tracingOn } from './tracing/spans';
import { registerSecurityHeaders } from './security/security-headers';
import { refuseRequestsWhileClosing } from './health/refusals-while-closing';
import type { ProcessRole } from './process-role';

/** Far beyond any protocol message; deeper values would overflow the stack of code that recurses through them. */
const MAX_JSON_DEPTH = 64;

/** Builds the HTTP application (not yet listening): Fastify with body limit, request ids and security headers. */
export async function createHttpApp(config: SwitchboardConfig): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: config.server.body_limit_bytes,
    trustProxy: config.server.trust_proxy,
    genReqId: requestId,
    // Refused in each route's own form instead (refuseRequestsWhileClosing).
    return503OnClosing: false,
    // Fastify also times the close hooks with it (10 s by default), shorter than the shutdown drain.
    pluginTimeout: config.server.shutdown_timeout_secs * 1000,
    ...connectionLimits(config.server),
  });
  const fastify = adapter.getInstance();
  fastify.server.maxConnections = config.server.max_connections;
  refuseRequestsWhileClosing(fastify);
  if (tracingOn()) registerRequestSpans(fastify);
  closeUnusedConnections(fastify, config.server.headers_timeout_ms);
  fastify.addHook('onSend', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
  // JSON bodies, also under A2A's own media type; an empty one is no body (A2A clients POST `:cancel` so).
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser(
    ['application/json', A2A_CONTENT_TYPE],
    { parseAs: 'buffer' },
    (request, bytes, done) => {
      if (bytes.length === 0) return done(null, undefined);
      let body: string;
      try {
        body = decodeUtf8Body(bytes as Buffer);
      } catch (error) {
        return done(error as Error, undefined);
      }
      void parseJson(request, body, (error, value) => {
        if (error || !jsonDepthExceeds(value, MAX_JSON_DEPTH)) return done(error, value);
        done(new JsonTooDeepError(MAX_JSON_DEPTH, value), undefined);
      });
    },
  );
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, 'api'), adapter, {
    // Fastify's parsers, set up above, not Nest's.
    bodyParser: false,
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(app.get(AppLogger));
  app.flushLogs();
  app.useGlobalFilters(new RequestErrorFilter(app.get(HttpAdapterHost)));
  registerSecurityHeaders(fastify, {
    contentSecurityPolicy: { directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  });
  return app;
}

/**
 * How long a client may take to send a request, and to come back on a kept-alive connection. Only
 * the incoming request is timed: answers may take long (a blocking send waits for its turn, SSE
 * streams stay open), so there is no socket inactivity timeout (Fastify's `connectionTimeout`).
 */
function connectionLimits(server: SwitchboardConfig['server']) {
  return {
    requestTimeout: server.request_timeout_ms,
    keepAliveTimeout: server.keep_alive_timeout_ms,
    http: {
      headersTimeout: server.headers_timeout_ms,
      requestTimeout: server.request_timeout_ms,
      // Node enforces both timeouts on this tick (30 s by default), which would let a slow client overstay them.
      connectionsCheckingInterval: Math.min(1_000, Math.ceil(server.headers_timeout_ms / 2)),
    },
  };
}

/** Builds a worker-only process: no HTTP, just the queue workers and the stores they need. */
export function createWorkerApp(config: SwitchboardConfig) {
  return createAppContext(config, 'worker');
}

/** Builds the modules of a role without an HTTP listener (the worker; the API's modules for `switchboard mcp` over stdio). */
export async function createAppContext(config: SwitchboardConfig, role: ProcessRole) {
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config, role), {
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(app.get(AppLogger));
  app.flushLogs();
  return app;
}
