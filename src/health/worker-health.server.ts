import { createServer, Server } from 'node:http';
import type { ReadinessService } from './readiness.service';

/**
 * The worker's probe endpoints, for orchestrators: `/healthz` (the process answers) and `/readyz`
 * (its stores and queue answer), the API's own answers, on a bare HTTP server. A worker serves
 * nothing else, so it needs no web framework, auth or rate limits.
 */
export async function startWorkerHealthServer(readiness: ReadinessService, host: string, port: number): Promise<Server> {
  const server = createServer((request, response) => {
    const send = (status: number, body: object) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method !== 'GET') return send(405, { status: 'error', message: 'only GET' });
    if (request.url === '/healthz') return send(200, { status: 'ok' });
    if (request.url !== '/readyz') return send(404, { status: 'error', message: 'not found: /healthz and /readyz only' });
    readiness.check().then(
      ({ ready, checks }) => send(ready ? 200 : 503, { status: ready ? 'ok' : 'unavailable', checks }),
      (error: Error) => send(503, { status: 'unavailable', message: error.message }),
    );
  });
  await new Promise<void>((listening, failed) => {
    server.once('error', failed);
    server.listen(port, host, () => listening());
  });
  return server;
}
