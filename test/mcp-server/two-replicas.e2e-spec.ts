/**
 * Two API instances sharing one Postgres database and one Redis prefix, as two replicas behind a
 * load balancer: an MCP client's requests land on either, and it keeps working.
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { TEST_AGENTS_TOML } from '../a2a/support/test-agents';
import { writeConfigFile } from '../support/config-file';
import { startTestApp, testConfig } from '../support/test-app';
import { createTestDatabase, deleteRedisKeys, TestDatabase, testRedisPrefix, testRedisUrl } from '../support/test-database';
import { cancelOnFirstChunk, connectV1, connectV2, expectCanceled, textOf } from './support/mcp-clients';

/** A fetch that sends `tools/call` requests to replica A and everything else (initialize, list, cancel, DELETE) to B. */
function splitFetch(a: string, b: string): typeof fetch {
  return async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    const toA = typeof init?.body === 'string' && init.body.includes('"tools/call"');
    const target = new URL(url.pathname + url.search, toA ? a : b);
    return fetch(target, init);
  };
}

/** A fetch that alternates replicas on every request. */
function roundRobinFetch(urls: string[]): typeof fetch {
  let next = 0;
  return async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    return fetch(new URL(url.pathname + url.search, urls[next++ % urls.length]), init);
  };
}

describe('MCP clients across two API replicas', () => {
  let database: TestDatabase;
  let redisPrefix: string;
  const apps: NestFastifyApplication[] = [];
  let a: string;
  let b: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    redisPrefix = testRedisPrefix();
    const config = testConfig({
      SWITCHBOARD_CONFIG: writeConfigFile(TEST_AGENTS_TOML),
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      SWITCHBOARD_REDIS_PREFIX: redisPrefix,
    });
    for (const _ of [0, 1]) {
      const { app } = await startTestApp(config);
      apps.push(app);
    }
    [a, b] = await Promise.all(apps.map((app) => app.getUrl()));
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    if (redisPrefix) await deleteRedisKeys(redisPrefix);
    await database?.drop();
  });

  it('keeps a 2025-era session whose requests land on both replicas', async () => {
    const { client, transport } = await connectV1(b, { fetch: splitFetch(a, b) });
    expect(transport.sessionId).toBeDefined();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('switchboard_agent_echo');
    const result = await client.callTool({ name: 'switchboard_agent_echo', arguments: { message: 'across replicas' } });
    expect(textOf(result)).toBe('across replicas');
    await transport.terminateSession();
    await client.close();
  });

  it('cancels, from replica B, a call running on replica A', async () => {
    const { client } = await connectV1(b, { fetch: splitFetch(a, b) });
    const cancel = cancelOnFirstChunk();
    await expect(client.callTool({ name: 'switchboard_agent_slow', arguments: { message: '0123456789' } }, undefined, cancel)).rejects.toThrow();
    await expectCanceled(b, cancel.taskId());
    await client.close();
  });

  it('serves a 2026-07-28 client whose requests alternate between replicas', async () => {
    const client = await connectV2(a, { fetch: roundRobinFetch([a, b]) });
    for (const message of ['one', 'two', 'three']) {
      expect(textOf(await client.callTool({ name: 'switchboard_agent_echo', arguments: { message } }))).toBe(message);
    }
    await client.close();
  });
});
