import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Environment } from '../../src/config/config.loader';
import type { SwitchboardConfig } from '../../src/config/config.schema';
import { writeConfigFile } from './config-file';
import { startTestApp, testConfig } from './test-app';
import { createTestDatabase, deleteRedisKeys, type TestDatabase, testRedisPrefix, testRedisUrl } from './test-database';
import { TEST_AGENTS_TOML } from './test-agents';

export interface DurableTestApp {
  app: NestFastifyApplication;
  url: string;
  database: TestDatabase;
  /** What it was started with: a worker started with the same config serves it. */
  config: SwitchboardConfig;
  close(): Promise<void>;
}

/** The test agents served in durable mode: a database and a Redis key prefix of their own, an in-process worker. */
export async function startDurableTestApp(env: Environment = {}): Promise<DurableTestApp> {
  const database = await createTestDatabase();
  const redisPrefix = testRedisPrefix();
  const config = testConfig({
    SWITCHBOARD_CONFIG: writeConfigFile(TEST_AGENTS_TOML),
    DATABASE_URL: database.url,
    REDIS_URL: testRedisUrl(),
    SWITCHBOARD_REDIS_PREFIX: redisPrefix,
    ...env,
  });
  const { app, url } = await startTestApp(config);
  return {
    app,
    url,
    database,
    config,
    async close() {
      await app.close();
      await deleteRedisKeys(redisPrefix);
      await database.drop();
    },
  };
}
