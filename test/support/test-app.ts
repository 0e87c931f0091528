import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHttpApp } from '../../src/app.factory';
import { type Environment, loadConfig } from '../../src/config/config.loader';
import type { SwitchboardConfig } from '../../src/config/config.schema';

export const TEST_API_KEY = 'test-key-0123456789abcdef';

/**
 * Config as the service would load it, from environment-style overrides only (no config file).
 * Defaults for tests: one API key, quiet logs, embedded stores unless DATABASE_URL/REDIS_URL are given.
 */
export function testConfig(env: Environment = {}): SwitchboardConfig {
  return loadConfig({
    SWITCHBOARD_CONFIG: undefined,
    SWITCHBOARD_API_KEYS: `tester=${TEST_API_KEY}`,
    LOG_LEVEL: 'silent',
    PORT: '0',
    // As the service has it: stdio MCP servers are given PATH.
    PATH: process.env.PATH,
    ...env,
  }).config;
}

/** A started HTTP app on an ephemeral loopback port; `close()` it in afterAll. */
export async function startTestApp(config: SwitchboardConfig): Promise<{ app: NestFastifyApplication; url: string }> {
  const app = await createHttpApp(config);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url: await app.getUrl() };
}

export function bearer(key = TEST_API_KEY): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}
