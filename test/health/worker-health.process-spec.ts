/** A `switchboard worker` with `queue.health_port` answers the probes an orchestrator sends it, and Prometheus's scrapes. */
import { type ServiceProcess, ServiceProcesses } from '../support/service-processes';
import { freePort } from '../support/free-port';
import { bearer } from '../support/test-app';
import {
  createTestDatabase,
  deleteRedisKeys,
  type TestDatabase,
  testRedisPrefix,
  testRedisUrl,
} from '../support/test-database';

jest.setTimeout(40_000);

const METRICS_KEY = 'metrics-key-0123456789abcdef';

let database: TestDatabase;
let redisPrefix: string;
let services: ServiceProcesses;
let worker: ServiceProcess;
let base: string;

beforeAll(async () => {
  database = await createTestDatabase();
  redisPrefix = testRedisPrefix();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  services = new ServiceProcesses({
    DATABASE_URL: database.url,
    REDIS_URL: testRedisUrl(),
    SWITCHBOARD_REDIS_PREFIX: redisPrefix,
    SWITCHBOARD_WORKER_HEALTH_PORT: String(port),
    // As the Helm chart gives a worker Prometheus's key.
    SWITCHBOARD_METRICS_KEYS: `prometheus=${METRICS_KEY}`,
  });
  worker = await services.worker('worker');
});

afterAll(async () => {
  await services?.stopAll();
  if (redisPrefix) await deleteRedisKeys(redisPrefix);
  await database?.drop();
});

it('answers /healthz, and /readyz with each store and the queue', async () => {
  expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
  const ready = await fetch(`${base}/readyz`);
  expect(ready.status).toBe(200);
  expect(await ready.json()).toEqual({
    status: 'ok',
    checks: {
      queue: { status: 'up' },
      catalog: { status: 'up' },
      postgres: { status: 'up' },
      schema: { status: 'up' },
      redis: { status: 'up' },
    },
  });
  expect((await fetch(`${base}/other`)).status).toBe(404);
});

it('serves its metrics at /metrics to a caller with an API key, as the API does', async () => {
  const refused = await fetch(`${base}/metrics`);
  expect(refused.status).toBe(401);
  expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
  expect((await fetch(`${base}/metrics`, { headers: bearer('wrong-key-0123456789abcdef') })).status).toBe(401);
  const scraped = await fetch(`${base}/metrics`, { headers: bearer() });
  expect(scraped.status).toBe(200);
  expect(scraped.headers.get('content-type')).toMatch(/^text\/plain/);
  expect(await scraped.text()).toContain('switchboard_process_resident_memory_bytes');
  expect((await fetch(`${base}/metrics`, { headers: bearer(METRICS_KEY) })).status).toBe(200);
});

it('stops serving them when it stops', async () => {
  expect(await worker.stop()).toBe(0);
  await expect(fetch(`${base}/healthz`)).rejects.toThrow();
});
