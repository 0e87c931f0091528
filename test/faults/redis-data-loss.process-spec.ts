/**
 * Redis (the test's own server, without persistence) losing its data while turns are queued: with
 * no worker up, a blocking and a streaming send wait on their queued turns when Redis is flushed or
 * restarted. Each send still gets an answer (its task failed, saying why) and its task is stored
 * failed within seconds, long before the periodic orphaned-task sweep (a minute) would run; so is
 * the task of a send that was answered at once, once a worker is up.
 */
import { type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { TURN_LOST_TEXT } from '../../src/a2a-server/queued-turn-watch';
import { QueueName } from '../../src/queue/queue.constants';
import { ORPHANED_TEXT } from '../../src/tasks/lifecycle/orphaned-task-sweep.job';
import { collect, sdkClient, userMessage } from '../support/sdk-client';
import { type ServiceProcess, ServiceProcesses, stateOf, within } from '../support/service-processes';
import { TEST_AGENTS_TOML } from '../support/test-agents';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import { RedisProcess } from '../support/redis-process';
import { createTestDatabase, type TestDatabase, testRedisPrefix } from '../support/test-database';
import { jsonRpcSend, taskRows } from './support/store-outage-clients';

jest.setTimeout(90_000);

const CONFIG = TEST_AGENTS_TOML;
/** Well under the periodic sweep's minute: the loss is noticed within seconds, whatever the sweep's period. */
const NOTICED_WITHIN_MS = 15_000;

describe('Redis losing its data while turns are queued', () => {
  let redis: RedisProcess;
  let database: TestDatabase;
  let prefix: string;
  let services: ServiceProcesses;
  let api: ServiceProcess;

  beforeAll(async () => {
    [redis, database] = await Promise.all([RedisProcess.start(), createTestDatabase()]);
    prefix = testRedisPrefix();
    const env = {
      SWITCHBOARD_CONFIG: writeConfigFile(CONFIG),
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      SWITCHBOARD_REDIS_PREFIX: prefix,
    };
    services = new ServiceProcesses(env);
    // No worker: turns stay queued.
    api = await services.api('api');
  });

  afterAll(async () => {
    await services?.stopAll();
    await redis?.stop();
    await database?.drop();
  });

  /** Sends a blocking and a streaming message, resolving once both turns are queued. */
  async function queueTwoSends(text: string) {
    const queue = new Queue(QueueName.AgentTurns, {
      connection: { host: '127.0.0.1', port: redis.port },
      prefix: `${prefix}bull`,
    });
    try {
      const blocking = jsonRpcSend(api.baseUrl, 'echo', text);
      const streaming = sdkClient(api.baseUrl, 'echo', 'JSONRPC').then((client) =>
        collect(client.sendMessageStream(userMessage(text))),
      );
      await eventually(
        () => queue.getWaitingCount(),
        (waiting) => waiting === 2,
      );
      return { blocking, streaming };
    } finally {
      await queue.close();
    }
  }

  async function expectAnsweredFailed({
    blocking,
    streaming,
  }: Awaited<ReturnType<typeof queueTwoSends>>): Promise<void> {
    const [answer, events] = await services.explain(() =>
      within(Promise.all([blocking, streaming]), NOTICED_WITHIN_MS, 'the sends whose turns were lost'),
    );
    const task = (
      answer.body.result as { task: { id: string; status: { state: string; message: { parts: { text: string }[] } } } }
    ).task;
    const first = events[0]?.payload?.$case === 'task' ? (events[0].payload.value as Task) : undefined;
    await services.explain(() => {
      expect({ state: task.status.state, text: task.status.message.parts[0].text }).toEqual({
        state: 'TASK_STATE_FAILED',
        text: TURN_LOST_TEXT,
      });
      expect(first).toBeDefined();
      expect(stateOf(events.at(-1) as StreamResponse)).toBe(TaskState.TASK_STATE_FAILED);
    });
    const rows = await taskRows(database.url);
    for (const id of [task.id, first!.id])
      expect(rows.find((row) => row.id === id)).toEqual({ id, state: 'TASK_STATE_FAILED', statusText: TURN_LOST_TEXT });
  }

  it('answers blocking and streaming sends whose queued turns were flushed, and stores their tasks failed', async () => {
    const sends = await queueTwoSends('flushed');
    const admin = new Redis(redis.url);
    await admin.flushall();
    admin.disconnect();
    await expectAnsweredFailed(sends);
  });

  it('answers blocking and streaming sends whose queued turns went with a restart, and stores their tasks failed', async () => {
    const sends = await queueTwoSends('restarted');
    await redis.restart();
    await expectAnsweredFailed(sends);
  });

  it('stores failed the task of a send answered at once whose queued turn was flushed, once a worker is up', async () => {
    const answer = await jsonRpcSend(api.baseUrl, 'echo', 'answered at once', true);
    const { id } = (answer.body.result as { task: { id: string } }).task;
    const admin = new Redis(redis.url);
    await admin.flushall();
    admin.disconnect();
    await services.worker('worker');
    const row = await services.explain(() =>
      eventually(
        async () => (await taskRows(database.url)).find((task) => task.id === id),
        (task) => task?.state === 'TASK_STATE_FAILED',
        NOTICED_WITHIN_MS,
      ),
    );
    expect(row).toEqual({ id, state: 'TASK_STATE_FAILED', statusText: ORPHANED_TEXT });
  });
});
