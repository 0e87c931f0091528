/**
 * Tasks whose turn is lost on the way. A send whose task is recorded but whose turn cannot be
 * queued ends `failed` (and its client gets a retryable error); a task whose queued turn is lost
 * later (a Redis restarted without persistence) is failed by the orphaned-task sweep; a turn that
 * is running is left alone however long it goes without a write.
 */
import { TaskState } from '@a2a-js/sdk';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import Redis from 'ioredis';
import { NOT_QUEUED_TEXT } from '../../src/a2a-server/queued-agent-executor';
import { ORPHANED_TEXT } from '../../src/tasks/lifecycle/orphaned-task-sweep.job';
import { artifactText, asTask, sdkClient, userMessage } from '../support/sdk-client';
import { type ServiceProcess, ServiceProcesses, within } from '../support/service-processes';
import { TEST_AGENTS_TOML } from '../support/test-agents';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import { RedisProcess } from '../support/redis-process';
import { startTestApp, testConfig } from '../support/test-app';
import { createTestDatabase, type TestDatabase, testRedisPrefix } from '../support/test-database';
import { jsonRpcSend, taskRows } from './support/store-outage-clients';

jest.setTimeout(90_000);

const RETRYABLE = {
  status: 503,
  retryAfter: '5',
  body: { error: { code: -32603, message: expect.stringContaining('temporarily unavailable') } },
};

describe('orphaned tasks', () => {
  let redis: RedisProcess;
  let database: TestDatabase;

  beforeAll(async () => {
    [redis, database] = await Promise.all([RedisProcess.start(), createTestDatabase()]);
  });

  afterAll(async () => {
    await redis?.stop();
    await database?.drop();
  });

  describe('a send whose turn cannot be queued', () => {
    let app: NestFastifyApplication | undefined;
    let url: string;

    beforeAll(async () => {
      // A Redis user that may use every key but write none of BullMQ's: streams work, enqueues fail.
      const prefix = testRedisPrefix();
      const admin = new Redis(redis.url);
      await admin.call(
        'ACL',
        'SETUSER',
        'api',
        'on',
        '>api-password',
        '&*',
        '+@all',
        '~{*',
        `~${prefix}[^b]*`,
        `%R~${prefix}bull:*`,
      );
      admin.disconnect();
      const config = testConfig({
        DATABASE_URL: database.url,
        REDIS_URL: `redis://api:api-password@127.0.0.1:${redis.port}`,
        SWITCHBOARD_REDIS_PREFIX: prefix,
        SWITCHBOARD_WORKER_IN_API: 'false',
      });
      ({ app, url } = await startTestApp(config));
    });

    afterAll(() => app?.close());

    it('refuses a non-blocking send with a retryable error and leaves its recorded task failed, not submitted', async () => {
      const before = (await taskRows(database.url)).length;
      expect(await jsonRpcSend(url, 'echo', 'cannot be queued', true)).toMatchObject(RETRYABLE);
      const added = (await taskRows(database.url)).slice(before);
      expect(added).toEqual([{ id: expect.any(String), state: 'TASK_STATE_FAILED', statusText: NOT_QUEUED_TEXT }]);
    });

    it('refuses a blocking send with a retryable error, recording no task', async () => {
      const before = await taskRows(database.url);
      expect(await jsonRpcSend(url, 'echo', 'cannot be queued', false)).toMatchObject(RETRYABLE);
      expect(await taskRows(database.url)).toEqual(before);
    });
  });

  describe('the orphaned-task sweep', () => {
    let services: ServiceProcesses;
    let api: ServiceProcess;
    let worker: ServiceProcess;

    /** `gaps` goes 1.5 s without writing its task, longer than the sweep's idle time, twice per turn. */
    const CONFIG = `${TEST_AGENTS_TOML}
[[agents]]
name = "gaps"
description = "Echoes in two chunks, 1.5 s apart"
[agents.executor]
type = "echo"
chunks = 2
delay_ms = 1500

[tasks]
orphan_sweep_secs = 1
`;

    beforeAll(async () => {
      await redis.restart();
      const env = {
        SWITCHBOARD_CONFIG: writeConfigFile(CONFIG),
        DATABASE_URL: database.url,
        REDIS_URL: redis.url,
        SWITCHBOARD_REDIS_PREFIX: testRedisPrefix(),
      };
      services = new ServiceProcesses(env);
      // No worker yet: the first turn stays queued.
      api = await services.api('api');
    });

    afterAll(() => services?.stopAll());

    it('fails a submitted task whose queued turn was lost with Redis, once a worker runs the sweep', async () => {
      const sent = await jsonRpcSend(api.baseUrl, 'echo', 'queued, then lost', true);
      const task = (sent.body.result as { task: { id: string; status: { state: string } } }).task;
      expect(task.status.state).toBe('TASK_STATE_SUBMITTED');
      await redis.restart();
      worker = await services.worker('worker');

      const rows = await services.explain(() =>
        eventually(
          () => taskRows(database.url),
          (all) => all.find((row) => row.id === task.id)?.state !== 'TASK_STATE_SUBMITTED',
        ),
      );
      expect(rows.find((row) => row.id === task.id)).toEqual({
        id: task.id,
        state: 'TASK_STATE_FAILED',
        statusText: ORPHANED_TEXT,
      });
      // Its log line may reach the test after the row changed (two channels): it is waited for.
      await within(worker.logged(task.id, 'orphaned task failed'), 10_000, 'the worker logging the orphaned task');
    });

    it('leaves a running turn alone however long it goes without a write', async () => {
      const client = await sdkClient(api.baseUrl, 'gaps', 'JSONRPC');
      const task = asTask(
        await services.explain(() =>
          within(client.sendMessage(userMessage('two halves')), 20_000, 'a turn with long gaps'),
        ),
      );
      expect({ state: task.status?.state, text: artifactText(task) }).toEqual({
        state: TaskState.TASK_STATE_COMPLETED,
        text: 'two halves',
      });
      expect(worker.hasLogged(task.id, 'orphaned task failed')).toBe(false);
    });
  });
});
