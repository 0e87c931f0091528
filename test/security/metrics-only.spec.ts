/**
 * A scrape credential (`metrics_only`, as `SWITCHBOARD_METRICS_KEYS` gives the chart's Prometheus
 * key): `/metrics` and nothing else, on every route the app registers and over gRPC.
 */
import { ListTasksRequest } from '@a2a-js/sdk';
import { status } from '@grpc/grpc-js';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHttpApp } from '../../src/app.factory';
import { grpcClient } from '../a2a-server/support/grpc-client';
import { freePort } from '../support/free-port';
import { bearer, testConfig } from '../support/test-app';
import { callableRoutes, label, recordRoutes, type Route, samplePath } from './routes';

const METRICS_KEY = 'metrics-key-0123456789abcdef';
/** Answered without any key (test/security/auth.spec.ts lists them). */
const PUBLIC =
  /^(GET|HEAD) \/(healthz|readyz|\.well-known\/|a2a\/agents(\/:name\/(agent-card\.json|\.well-known\/.*))?$|console\/(login|assets\/))|^POST \/console\/log(in|out)$/;

describe('a metrics-only key', () => {
  let app: NestFastifyApplication;
  let url: string;
  let grpcPort: number;
  let routes: Route[];

  beforeAll(async () => {
    grpcPort = await freePort();
    app = await createHttpApp(
      testConfig({ SWITCHBOARD_METRICS_KEYS: `prometheus=${METRICS_KEY}`, SWITCHBOARD_GRPC_PORT: String(grpcPort) }),
    );
    const recorded = recordRoutes(app);
    await app.listen({ host: '127.0.0.1', port: 0 });
    url = await app.getUrl();
    routes = callableRoutes(recorded).filter((route) => !PUBLIC.test(label(route)));
  });

  afterAll(async () => {
    await app?.close();
  });

  it('scrapes /metrics', async () => {
    const scraped = await fetch(`${url}/metrics`, { headers: bearer(METRICS_KEY) });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('switchboard_process_resident_memory_bytes');
  });

  it('is refused with 403 JSON on every other route that takes a key, naming why', async () => {
    expect(routes.map(label)).toEqual(
      expect.arrayContaining(['POST /a2a', 'POST /mcp', 'GET /api/admin/overview', 'GET /console']),
    );
    const wrong: string[] = [];
    for (const route of routes.filter((route) => route.url !== '/metrics')) {
      const withBody = !['GET', 'HEAD'].includes(route.method);
      const response = await fetch(url + samplePath(route.url), {
        method: route.method,
        headers: { ...bearer(METRICS_KEY), ...(withBody && { 'content-type': 'application/json' }) },
        body: withBody ? '{}' : undefined,
        redirect: 'manual',
      });
      // The console's pages answer a refusal by sending the browser to the login form.
      if (/^\/console(\/|$)/.test(route.url)) {
        if (response.status !== 303 || response.headers.get('location') !== '/console/login')
          wrong.push(`${label(route)} -> ${response.status}`);
        continue;
      }
      const body = (route.method === 'HEAD' ? {} : await response.json().catch(() => ({}))) as { message?: string };
      const refused =
        response.status === 403 &&
        (route.method === 'HEAD' || /"prometheus" may read \/metrics only \(metrics_only\)/.test(body.message ?? ''));
      if (!refused) wrong.push(`${label(route)} -> ${response.status} ${JSON.stringify(body)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('cannot open the console', async () => {
    const login = await fetch(`${url}/console/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `api_key=${METRICS_KEY}`,
      redirect: 'manual',
    });
    expect(login.status).toBe(403);
    expect(login.headers.get('set-cookie')).toBeNull();
  });

  it('is refused over gRPC (PERMISSION_DENIED)', async () => {
    const client = await grpcClient(url, 'echo', { key: METRICS_KEY });
    await expect(client.listTasks(ListTasksRequest.fromJSON({}))).rejects.toMatchObject({
      status: status.PERMISSION_DENIED,
      message: expect.stringMatching(/may read \/metrics only/),
    });
  });

  it('leaves the other keys as they were', async () => {
    expect((await fetch(`${url}/metrics`, { headers: bearer() })).status).toBe(200);
    expect((await fetch(`${url}/api/a2a/agents`, { headers: bearer() })).status).toBe(200);
  });
});
