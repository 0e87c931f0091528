/**
 * A turn is queued under a job id made of its task and message ids: a message sent again (a client
 * retrying a send whose answer it lost) queues nothing more, is answered with the task as it
 * stands, and its turn runs once, on real BullMQ and Redis with a separate worker.
 */
import { Role, SendMessageRequest, TaskState } from '@a2a-js/sdk';
import type { INestApplicationContext } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createWorkerApp } from '../../src/app.factory';
import type { SwitchboardConfig } from '../../src/config/config.schema';
import { JOB_QUEUE, JobQueue } from '../../src/queue/job-queue.interface';
import { QueueName } from '../../src/queue/queue.constants';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import { startTestApp, testConfig } from '../support/test-app';
import { createTestDatabase, deleteRedisKeys, TestDatabase, testRedisPrefix, testRedisUrl } from '../support/test-database';
import { asTask, sdkClient, userMessage } from './support/sdk-client';
import { TEST_AGENTS_TOML } from './support/test-agents';

describe('a message sent twice', () => {
  const redisPrefix = testRedisPrefix();
  let database: TestDatabase;
  let config: SwitchboardConfig;
  let api: NestFastifyApplication;
  let url: string;
  let worker: INestApplicationContext | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    config = testConfig({
      SWITCHBOARD_CONFIG: writeConfigFile(TEST_AGENTS_TOML),
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      SWITCHBOARD_REDIS_PREFIX: redisPrefix,
      SWITCHBOARD_WORKER_IN_API: 'false',
    });
    ({ app: api, url } = await startTestApp(config));
  });

  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await deleteRedisKeys(redisPrefix);
    await database?.drop();
  });

  it('queues and runs its turn once, and answers the second send with the task as it stands', async () => {
    const client = await sdkClient(url, 'ask', 'JSONRPC');
    const queue = api.get<JobQueue>(JOB_QUEUE);
    const nonBlocking = (request: SendMessageRequest): SendMessageRequest => ({ ...request, configuration: { ...request.configuration!, returnImmediately: true } });
    const first = nonBlocking(userMessage('where to?'));
    const task = asTask(await client.sendMessage(first));

    const again = asTask(await client.sendMessage({ ...first, message: { ...first.message!, taskId: task.id } }));
    expect(again).toMatchObject({ id: task.id, status: { state: TaskState.TASK_STATE_SUBMITTED } });
    expect((await queue.counts())[QueueName.AgentTurns].waiting).toBe(1);

    worker = await createWorkerApp(config);
    await worker.init();
    await eventually(
      async () => (await queue.counts())[QueueName.AgentTurns],
      (counts) => counts.waiting + counts.active + counts.delayed === 0,
    );
    const stored = await client.getTask({ id: task.id, tenant: '' });
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(stored.history.filter((message) => message.role === Role.ROLE_USER).map((message) => message.messageId)).toEqual([first.message!.messageId]);
    // Each run of the turn asks once, in a message of its own.
    const questions = new Set([...stored.history, stored.status!.message!].filter((message) => message.role === Role.ROLE_AGENT).map((message) => message.messageId));
    expect(questions.size).toBe(1);
  });
});
