import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { eventually } from '../support/eventually';
import { RedisProcess } from '../support/redis-process';
import { startTestApp, testConfig } from '../support/test-app';
import { adminDatabaseUrl, applyMigrations, createTestDatabase, type TestDatabase } from '../support/test-database';

interface ReadyzBody {
  message?: string;
  checks: Record<string, { status: string; error?: string }>;
}

async function readyz(url: string): Promise<{ status: number; body: ReadyzBody }> {
  const response = await fetch(`${url}/readyz`);
  return { status: response.status, body: (await response.json()) as ReadyzBody };
}

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

  it('is ready when Postgres (with every migration applied), Redis and the queue answer', async () => {
    const { status, body } = await readyz(url);
    expect(status).toBe(200);
    expect(body.checks).toEqual({
      postgres: { status: 'up' },
      schema: { status: 'up' },
      redis: { status: 'up' },
      queue: { status: 'up' },
      catalog: { status: 'up' },
    });
  });

  it('turns 503 naming Redis when Redis stops, stays live, and recovers without a restart', async () => {
    await redis.stop();
    const down = await eventually(
      () => readyz(url),
      (r) => r.status === 503,
    );
    expect(down.body.message).toMatch(/redis/);
    expect(down.body.checks.redis.status).toBe('down');
    expect(down.body.checks.postgres.status).toBe('up');
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    await redis.restart();
    const up = await eventually(
      () => readyz(url),
      (r) => r.status === 200,
      15_000,
    );
    expect(up.body.checks.redis.status).toBe('up');
  });
});

describe('readiness on a database that breaks after boot (its own)', () => {
  let database: TestDatabase;
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    ({ app, url } = await startTestApp(testConfig({ DATABASE_URL: database.url })));
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  describe('when the schema goes missing', () => {
    it('turns 503 saying to run switchboard migrate while Postgres still answers, and recovers once migrated', async () => {
      expect((await readyz(url)).status).toBe(200);
      const client = new Client({ connectionString: database.url });
      await client.connect();
      try {
        await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
      } finally {
        await client.end();
      }
      const { status, body } = await readyz(url);
      expect(status).toBe(503);
      expect(body.message).toBe('not ready: schema down');
      expect(body.checks.postgres).toEqual({ status: 'up' });
      expect(body.checks.schema.error).toMatch(
        /^the database is not migrated: none of the \d+ migrations is applied .*; run `switchboard migrate` \(npm run migrate\)/,
      );

      await applyMigrations(database.url);
      expect(await readyz(url)).toMatchObject({ status: 200, body: { checks: { schema: { status: 'up' } } } });
    });
  });

  describe('when Postgres refuses writes', () => {
    /** Runs `sql` on the server's maintenance database, then ends every session of the test's database so that new ones take its defaults. */
    async function alterDatabase(sql: (name: string) => string): Promise<void> {
      const name = new URL(database.url).pathname.slice(1);
      const admin = new Client({ connectionString: adminDatabaseUrl() });
      await admin.connect();
      try {
        await admin.query(sql(name));
        await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
      } finally {
        await admin.end();
      }
    }

    it('turns 503 naming Postgres as not writable while its transactions are read-only, and recovers without a restart', async () => {
      expect((await readyz(url)).status).toBe(200);

      // A full disk or a failover to a standby, as the service sees it: reads answer, every write fails.
      await alterDatabase((name) => `ALTER DATABASE "${name}" SET default_transaction_read_only = on`);
      // The pool may first hand out a session that was just ended; the next one is read-only.
      const down = await eventually(
        () => readyz(url),
        (r) => r.status === 503 && /refuses writes/.test(r.body.checks.postgres.error ?? ''),
      );
      expect(down.body.message).toBe('not ready: postgres down');
      expect(down.body.checks.postgres).toEqual({
        status: 'down',
        error: 'Postgres refuses writes: transactions are read-only (default_transaction_read_only is on)',
      });
      expect(down.body.checks.schema).toEqual({ status: 'up' });
      expect((await fetch(`${url}/healthz`)).status).toBe(200);

      await alterDatabase((name) => `ALTER DATABASE "${name}" RESET default_transaction_read_only`);
      const up = await eventually(
        () => readyz(url),
        (r) => r.status === 200,
      );
      expect(up.body.checks.postgres).toEqual({ status: 'up' });
    });
  });
});
