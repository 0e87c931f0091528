import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { eventually } from '../support/eventually';
import { RedisProcess } from '../support/redis-process';
import { startTestApp, testConfig } from '../support/test-app';
import { createTestDatabase } from '../support/test-database';

describe('readiness with a Redis outage', () => {
  let redis: RedisProcess;
  let database: { url: string; drop(): Promise<void> };
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    [redis, database] = await Promise.all([RedisProcess.start(), createTestDatabase()]);
    ({ app, url } = await startTestApp(testConfig({ REDIS_URL: redis.url, DATABASE_URL: database.url })));
  });

  afterAll(async () => {
    await app?.close();
    await redis?.stop();
    await database?.drop();
  });

  const readyz = async () => {
    const response = await fetch(`${url}/readyz`);
    return { status: response.status, body: (await response.json()) as { message?: string; checks: Record<string, { status: string }> } };
  };

  it('is ready when Postgres, Redis and the queue answer', async () => {
    const { status, body } = await readyz();
    expect(status).toBe(200);
    expect(body.checks).toEqual({ postgres: { status: 'up' }, redis: { status: 'up' }, queue: { status: 'up' } });
  });

  it('turns 503 naming Redis when Redis stops, stays live, and recovers without a restart', async () => {
    await redis.stop();
    const down = await eventually(readyz, (r) => r.status === 503);
    expect(down.body.message).toMatch(/redis/);
    expect(down.body.checks.redis.status).toBe('down');
    expect(down.body.checks.postgres.status).toBe('up');
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    await redis.restart();
    const up = await eventually(readyz, (r) => r.status === 200, 15_000);
    expect(up.body.checks.redis.status).toBe('up');
  });
});
