/**
 * A process that boots while Postgres is down starts with the file's catalog, says in /readyz that
 * the admin API's entries are not read yet (counted: it does not know their keys and rules), and
 * reads them once Postgres answers. On a Postgres server of the test's own, which the test stops.
 */
import { PostgresCatalogStore } from '../../src/catalog/postgres-catalog-store';
import { keyDigest } from '../../src/config/file-catalog';
import { LiveCatalog } from '../../src/config/live-catalog';
import { PostgresProcess } from '../support/postgres-process';
import { connectPrisma } from '../support/store-connections';
import { bearer, startTestApp, testConfig } from '../support/test-app';
import { applyMigrations, deleteRedisKeys, testRedisPrefix, testRedisUrl } from '../support/test-database';

jest.setTimeout(60_000);

const LATE_KEY = 'stored-before-the-outage-0123456789';

describe('catalog when Postgres is down at boot', () => {
  let postgres: PostgresProcess;
  const redisPrefix = testRedisPrefix();

  beforeAll(async () => {
    postgres = await PostgresProcess.start();
  });

  afterAll(async () => {
    await deleteRedisKeys(redisPrefix);
    await postgres?.destroy();
  });

  it("boots with the file's catalog, is not ready, and reads the admin API's entries once Postgres answers", async () => {
    const databaseUrl = await postgres.createDatabase('switchboard');
    await applyMigrations(databaseUrl);
    const prisma = connectPrisma(databaseUrl);
    await new PostgresCatalogStore(prisma).apply(
      { op: 'create', kind: 'keys', name: 'late', body: { name: 'late', digest: keyDigest(LATE_KEY) }, maxEntries: 10 },
      () => ({ at: new Date(), actor: 'test', action: 'catalog.create', target: 'key:late' }),
    );
    await prisma.onApplicationShutdown();
    await postgres.stop();

    const { app, url } = await startTestApp(
      testConfig({ DATABASE_URL: databaseUrl, REDIS_URL: testRedisUrl(), SWITCHBOARD_REDIS_PREFIX: redisPrefix }),
    );
    try {
      const live = app.get(LiveCatalog);
      expect(live.current.keys.map(({ name }) => name)).toEqual(['tester']);
      const readiness = await fetch(`${url}/readyz`);
      expect(readiness.status).toBe(503);
      expect(((await readiness.json()) as { checks: Record<string, unknown> }).checks.catalog_entries).toEqual({
        status: 'down',
        error: expect.stringContaining("the admin API's entries are not read yet"),
      });
      expect((await fetch(`${url}/api/a2a/agents`, { headers: bearer(LATE_KEY) })).status).toBe(401);

      const read = new Promise<string[]>((resolve) =>
        live.onChange((next) => resolve(next.keys.map(({ name }) => name))),
      );
      await postgres.restart();
      expect(await read).toEqual(['tester', 'late']);
      expect((await fetch(`${url}/api/a2a/agents`, { headers: bearer(LATE_KEY) })).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
