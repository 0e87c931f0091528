/**
 * What is kept per task is bounded by `tasks.max_tasks`: when retention evicts a task, its event
 * stream and cancel request go with it (Redis keys in durable mode, in-process maps in embedded
 * mode; the snapshot cache leaves a short-lived tombstone), and the API holds no bus for a call that
 * has been answered.
 */
import { CancelTaskRequest, SendMessageConfiguration, type Task, TaskState } from '@a2a-js/sdk';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import Redis from 'ioredis';
import { TaskEventBusManager } from '../../src/a2a-server/task-event-bus.manager';
import { RedisService } from '../../src/redis/redis.service';
import { CANCEL_SIGNALS, type CancelSignals } from '../../src/tasks/cancel/cancel-signals.interface';
import { TASK_EVENT_STREAM, type TaskEventStream } from '../../src/tasks/events/task-event-stream.interface';
import { TaskRetentionJob } from '../../src/tasks/lifecycle/task-retention.job';
import { startDurableTestApp } from '../support/durable-test-app';
import { asTask, sdkClient, userMessage } from '../support/sdk-client';
import { TEST_AGENTS_TOML } from '../support/test-agents';
import { writeConfigFile } from '../support/config-file';
import { startTestApp, testConfig } from '../support/test-app';
import { testRedisUrl } from '../support/test-database';

const MAX_TASKS = 3;
/** Retention runs only when a test runs it. */
const CONFIG = `${TEST_AGENTS_TOML}\n[tasks]\nmax_tasks = ${MAX_TASKS}\nretention_interval_secs = 86400\n`;

interface Setup {
  app: NestFastifyApplication;
  url: string;
  /** Keys under the app's Redis prefix that end with `taskId`, without the prefix (`task-events:<id>`); undefined in embedded mode. */
  redisKeysOf?: (taskId: string) => Promise<string[]>;
  close(): Promise<void>;
}

async function durable(): Promise<Setup> {
  const service = await startDurableTestApp({ SWITCHBOARD_CONFIG: writeConfigFile(CONFIG) });
  const { prefix } = service.app.get(RedisService);
  const admin = new Redis(testRedisUrl());
  return {
    app: service.app,
    url: service.url,
    redisKeysOf: async (taskId) => (await admin.keys(`${prefix}*:${taskId}`)).map((key) => key.slice(prefix.length)),
    async close() {
      admin.disconnect();
      await service.close();
    },
  };
}

async function embedded(): Promise<Setup> {
  const { app, url } = await startTestApp(testConfig({ SWITCHBOARD_CONFIG: writeConfigFile(CONFIG) }));
  return { app, url, close: () => app.close() };
}

describe.each([
  ['durable', durable],
  ['embedded', embedded],
])('retention (%s)', (_mode, start) => {
  let setup: Setup;

  beforeAll(async () => {
    setup = await start();
  });
  afterAll(() => setup?.close());

  it('evicts a task with its event stream and its cancel request, and keeps those of the tasks it keeps', async () => {
    const ask = await sdkClient(setup.url, 'ask', 'JSONRPC');
    const echo = await sdkClient(setup.url, 'echo', 'JSONRPC');
    const canceled = asTask(await ask.sendMessage(userMessage('weather?')));
    await ask.cancelTask(CancelTaskRequest.fromJSON({ id: canceled.id }));
    const answered: Task[] = [];
    for (let i = 0; i < 5; i++) answered.push(asTask(await echo.sendMessage(userMessage(`hello ${i}`))));
    const stream = setup.app.get<TaskEventStream>(TASK_EVENT_STREAM);
    const cancelSignals = setup.app.get<CancelSignals>(CANCEL_SIGNALS);
    const never = await stream.tail('no-such-task');
    expect(await cancelSignals.isRequested(canceled.id)).toBe(true);
    expect(await stream.tail(canceled.id)).not.toBe(never);

    expect(await setup.app.get(TaskRetentionJob).run()).toEqual({ evicted: 3 });

    const [evicted, kept] = [[canceled, ...answered.slice(0, 2)], answered.slice(2)];
    for (const task of evicted) {
      await expect(echo.getTask({ id: task.id, tenant: '' })).rejects.toThrow(/not found/i);
      expect({ task: task.id, stream: await stream.tail(task.id) }).toEqual({ task: task.id, stream: never });
      // The snapshot cache keeps a tombstone for a minute, so that a read already under way cannot bring the task back.
      if (setup.redisKeysOf) expect(await setup.redisKeysOf(task.id)).toEqual([`task:${task.id}`]);
    }
    expect(await cancelSignals.isRequested(canceled.id)).toBe(false);
    for (const task of kept) {
      expect((await echo.getTask({ id: task.id, tenant: '' })).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(await stream.tail(task.id)).not.toBe(never);
      if (setup.redisKeysOf)
        expect((await setup.redisKeysOf(task.id)).sort()).toEqual([`task-events:${task.id}`, `task:${task.id}`]);
    }
    expect(await setup.app.get(TaskEventBusManager).drain(0)).toBe(true);
  });

  it('holds no bus for a non-blocking send once it is answered, while its turn goes on', async () => {
    const slow = await sdkClient(setup.url, 'slow', 'JSONRPC');
    const request = userMessage('0123456789');
    request.configuration = SendMessageConfiguration.fromJSON({ returnImmediately: true });
    const task = asTask(await slow.sendMessage(request));
    expect(await setup.app.get(TaskEventBusManager).drain(0)).toBe(true);
    expect((await slow.getTask({ id: task.id, tenant: '' })).status?.state).not.toBe(TaskState.TASK_STATE_COMPLETED);
  });
});
