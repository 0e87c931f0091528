/**
 * A process whose Redis connection was lost reads the catalog again once it is back: a notice sent
 * while it was away is lost, and the change must not be. On a Redis server of the test's own, whose
 * subscriber connections the test kills; the change is written where only a reading finds it (no
 * revision bump, so the revision poll cannot be what applies it).
 */
import { LiveCatalog } from '../../src/config/live-catalog';
import { connectPrisma } from '../support/store-connections';
import { type DurableTestApp, startDurableTestApp } from '../support/durable-test-app';
import { RedisProcess } from '../support/redis-process';
import { connectRedis } from '../support/store-connections';
import { testRedisPrefix } from '../support/test-database';

describe('catalog after a Redis outage', () => {
  let redis: RedisProcess;
  let service: DurableTestApp;

  beforeAll(async () => {
    redis = await RedisProcess.start();
    service = await startDurableTestApp({ REDIS_URL: redis.url });
  });

  afterAll(async () => {
    await service?.close();
    await redis?.stop();
  });

  it('reads the catalog again when its notice subscription comes back', async () => {
    const live = service.app.get(LiveCatalog);
    const applied = new Promise<string[]>((resolve) =>
      live.onChange((next) => resolve(next.mcp_servers.map(({ name }) => name))),
    );
    const prisma = connectPrisma(service.database.url);
    const admin = connectRedis(testRedisPrefix(), redis.url);
    try {
      await prisma.catalogEntry.create({
        data: {
          kind: 'mcp_servers',
          name: 'written-while-away',
          body: { name: 'written-while-away', transport: { type: 'http', url: 'https://mcp.example.com/mcp' } },
          version: 1,
          createdAt: new Date(),
          updatedAt: new Date(),
        },
      });
      await admin.client.client('KILL', 'TYPE', 'pubsub');
      expect(await applied).toContain('written-while-away');
    } finally {
      await Promise.all([prisma.onApplicationShutdown(), admin.onApplicationShutdown()]);
    }
  });
});
