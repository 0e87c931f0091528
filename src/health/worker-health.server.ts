import { createServer, type Server } from 'node:http';
import type { MetricsEndpoint } from './metrics-endpoint';
import type { ReadinessService } from './readiness.service';

const PATHS = '/healthz, /readyz and /metrics only';

/**
 * The worker's probe endpoints, for orchestrators and Prometheus: `/healthz` (the process answers),
 * `/readyz` (its stores and queue answer), the API's own answers, and `/metrics` (this worker's
 * series, behind the API's key as the API's are), on a bare HTTP server. A worker serves nothing
 * else, so it needs no web framework or rate limits.
 */
export async function startWorkerHealthServer(
  readiness: ReadinessService,
  metrics: MetricsEndpoint,
  host: string,
  port: number,
): Promise<Server> {
  const server = createServer((request, response) => {
    const send = (status: number, body: object) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const failed = (error: Error) => send(503, { status: 'unavailable', message: error.message });
    if (request.method !== 'GET') return send(405, { status: 'error', message: 'only GET' });
    switch (request.url) {
      case '/healthz':
        return send(200, { status: 'ok' });
      case '/readyz':
        return void readiness
          .check()
          .then(
            ({ ready, checks }) => send(ready ? 200 : 503, { status: ready ? 'ok' : 'unavailable', checks }),
            failed,
          );
      case '/metrics':
        return void metrics
          .scrape(request)
          .then(({ status, headers, body }) => response.writeHead(status, headers).end(body), failed);
      default:
        return send(404, { status: 'error', message: `not found: ${PATHS}` });
    }
  });
  await new Promise<void>((listening, failed) => {
    server.once('error', failed);
    server.listen(port, host, () => listening());
  });
  return server;
}
