/**
 * The ARDF bridge's subscriptions across replicas (durable mode): a 2025-era client subscribes on
 * replica A, its session's GET stream is held by replica B, and the task's turn runs on a separate
 * worker; a 2026-07-28 client starts a task on one replica and listens on the other.
 */
import type { INestApplicationContext } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createWorkerApp } from '../../../src/app.factory';
import { writeConfigFile } from '../../support/config-file';
import { startTestApp, testConfig } from '../../support/test-app';
import {
  createTestDatabase,
  deleteRedisKeys,
  type TestDatabase,
  testRedisPrefix,
  testRedisUrl,
} from '../../support/test-database';
import { bridgeClientV1, bridgeClientV2, startedTask, statesUntil } from '../support/bridge-clients';

const AGENTS_TOML = `
[[agents]]
name = "slow"
[agents.executor]
type = "echo"
chunks = 3
delay_ms = 300
`;

/** GET (the session's stream) to `streams`, every POST and DELETE to `requests`. */
function splitFetch(requests: string, streams: string): typeof fetch {
  return async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    const target = (init?.method ?? 'GET') === 'GET' ? streams : requests;
    return fetch(new URL(url.pathname + url.search, target), init);
  };
}

/** Every request to `target`. */
function only(target: string): typeof fetch {
  return async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    return fetch(new URL(url.pathname + url.search, target), init);
  };
}

describe('bridge subscriptions across two API replicas and a worker', () => {
  let database: TestDatabase;
  let redisPrefix: string;
  const apps: NestFastifyApplication[] = [];
  let worker: INestApplicationContext;
  let a: string;
  let b: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    redisPrefix = testRedisPrefix();
    const config = testConfig({
      SWITCHBOARD_CONFIG: writeConfigFile(AGENTS_TOML),
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      SWITCHBOARD_REDIS_PREFIX: redisPrefix,
      SWITCHBOARD_WORKER_IN_API: 'false',
    });
    for (const _ of [0, 1]) apps.push((await startTestApp(config)).app);
    [a, b] = await Promise.all(apps.map((app) => app.getUrl()));
    worker = await createWorkerApp(config);
    await worker.init();
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await worker?.close();
    if (redisPrefix) await deleteRedisKeys(redisPrefix);
    await database?.drop();
  });

  it('deliver a 2025-era subscription made on replica A over the GET stream held by replica B', async () => {
    const { client, updates } = await bridgeClientV1(a, undefined, splitFetch(a, b));
    const { taskUri } = startedTask(
      await client.callTool({ name: 'subagent_start', arguments: { subagentUri: 'a2a-agent://slow', text: 'abc' } }),
    );
    await client.subscribeResource({ uri: taskUri });
    await statesUntil(updates, client, taskUri, 'completed');
    // The three artifact chunks and the final status, each announced (in bursts, as the worker records them).
    await updates.next(taskUri, 3);
    expect(new Set(updates.uris)).toEqual(new Set([taskUri]));
    await client.close();
  });

  it('deliver to a 2026-07-28 listen on replica B a task started on replica A', async () => {
    const { client: starter } = await bridgeClientV2(a, undefined, only(a));
    const { client: listener, updates } = await bridgeClientV2(b, undefined, only(b));
    const { taskUri } = startedTask(
      await starter.callTool({ name: 'subagent_start', arguments: { subagentUri: 'a2a-agent://slow', text: 'xyz' } }),
    );
    const listening = await listener.listen({ resourceSubscriptions: [taskUri] });
    expect(listening.honoredFilter.resourceSubscriptions).toEqual([taskUri]);
    await statesUntil(updates, listener, taskUri, 'completed');
    await listening.close();
    await Promise.all([starter.close(), listener.close()]);
  });
});
