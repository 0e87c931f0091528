/**
 * Redis (the test's own server, without persistence) stopped, or frozen with its connections open,
 * under one API and one worker process. A send that cannot be accepted gets a retryable error in its
 * protocol's form, never a task that was not stored, and never waits on a Redis that does not
 * answer; when Redis is back (empty), sends work again and the maintenance schedule that went with
 * Redis's data is registered again, without restarting anything.
 */
import { TaskState } from '@a2a-js/sdk';
import { type Client } from '@a2a-js/sdk/client';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { JobName, QueueName } from '../../src/queue/queue.constants';
import { asTask, collect, sdkClient, userMessage } from '../support/sdk-client';
import { type ServiceProcess, ServiceProcesses } from '../support/service-processes';
import { TEST_AGENTS_TOML } from '../support/test-agents';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import { RedisProcess } from '../support/redis-process';
import { createTestDatabase, type TestDatabase, testRedisPrefix } from '../support/test-database';
import {
  jsonRpcSend,
  postJson,
  pushConfigCount,
  type RawAnswer,
  restSend,
  taskRows,
} from './support/store-outage-clients';

jest.setTimeout(90_000);

const CONFIG = `${TEST_AGENTS_TOML}
[outbound]
allow_hosts = ["127.0.0.1"]
[tasks]
orphan_sweep_secs = 1
`;

const RETRYABLE = { status: 503, retryAfter: '5' };
const UNAVAILABLE = expect.stringContaining(
  'the service is temporarily unavailable. Send the request again in 5 seconds.',
);

describe('a Redis outage', () => {
  let redis: RedisProcess;
  let database: TestDatabase;
  let prefix: string;
  let services: ServiceProcesses;
  let api: ServiceProcess;
  let jsonRpcClient: Client;
  let restClient: Client;

  beforeAll(async () => {
    [redis, database] = await Promise.all([RedisProcess.start(), createTestDatabase()]);
    prefix = testRedisPrefix();
    services = new ServiceProcesses({
      SWITCHBOARD_CONFIG: writeConfigFile(CONFIG),
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      SWITCHBOARD_REDIS_PREFIX: prefix,
    });
    [api] = await Promise.all([services.api('api'), services.worker('worker')]);
    [jsonRpcClient, restClient] = await Promise.all([
      sdkClient(api.baseUrl, 'echo', 'JSONRPC'),
      sdkClient(api.baseUrl, 'echo', 'HTTP+JSON'),
    ]);
  });

  /** A send completes again, once the service has noticed Redis is back. */
  async function expectSendsServed(): Promise<void> {
    const task = await services.explain(() =>
      eventually(
        () => jsonRpcClient.sendMessage(userMessage('after the outage')).then(asTask, (error: Error) => error.message),
        (answer) => typeof answer !== 'string',
        20_000,
      ),
    );
    expect(typeof task !== 'string' && task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  }

  afterAll(async () => {
    await services?.stopAll();
    await redis?.stop();
    await database?.drop();
  });

  it('refuses every kind of send with a retryable error and stores no task for them, then serves sends again', async () => {
    const before = await taskRows(database.url);
    // Never called: sends that ask for webhooks are refused before their webhook is stored.
    const webhookUrl = 'http://127.0.0.1:9/hook';
    await redis.stop();
    // Each waits out the Redis client's reconnect attempts (a few seconds), so they go together.
    const text = 'while Redis is down';
    const legacyMessage = { messageId: 'legacy-1', role: 'user', parts: [{ kind: 'text', text }] };
    const [raw, viaSdk, legacy] = await Promise.all([
      Promise.all(
        [false, true].flatMap((immediately) => [
          jsonRpcSend(api.baseUrl, 'echo', text, immediately),
          restSend(api.baseUrl, 'echo', text, immediately),
          jsonRpcSend(api.baseUrl, 'echo', text, immediately, webhookUrl),
          restSend(api.baseUrl, 'echo', text, immediately, webhookUrl),
        ]),
      ),
      Promise.allSettled([
        jsonRpcClient.sendMessage(userMessage(text)),
        collect(jsonRpcClient.sendMessageStream(userMessage(text))),
        restClient.sendMessage(userMessage(text)),
        collect(restClient.sendMessageStream(userMessage(text))),
      ]),
      // v0.3 JSON-RPC (no A2A-Version header), and the seeds' REST form.
      Promise.all([
        postJson(`${api.baseUrl}/a2a`, {
          jsonrpc: '2.0',
          id: 2,
          method: 'message/send',
          params: { message: legacyMessage },
        }),
        postJson(`${api.baseUrl}/a2a/tasks/send`, { message: { ...legacyMessage, messageId: 'legacy-2' } }),
      ]),
    ]);
    const [rowsDuringOutage, webhooksDuringOutage] = [
      await taskRows(database.url),
      await pushConfigCount(database.url),
    ];
    await redis.restart();

    await services.explain(() => {
      const rpcAnswers = raw.filter((_, index) => index % 2 === 0);
      const restAnswers = raw.filter((_, index) => index % 2 === 1);
      for (const rpc of rpcAnswers)
        expect(rpc).toMatchObject({ ...RETRYABLE, body: { error: { code: -32603, message: UNAVAILABLE } } });
      for (const rest of restAnswers)
        expect(rest).toMatchObject({ ...RETRYABLE, body: { error: { code: 503, message: UNAVAILABLE } } });
      for (const outcome of viaSdk)
        expect(outcome).toMatchObject({ status: 'rejected', reason: { message: UNAVAILABLE } });
      const [legacyRpc, seed] = legacy;
      expect(legacyRpc).toMatchObject({ ...RETRYABLE, body: { error: { code: -32603, message: UNAVAILABLE } } });
      expect(seed).toMatchObject({ ...RETRYABLE, body: { code: -32603, message: UNAVAILABLE } });
      expect(JSON.stringify([raw, legacy])).not.toMatch(/max retries/i);
    });
    expect(rowsDuringOutage).toEqual(before);
    expect(webhooksDuringOutage).toBe(0);

    await expectSendsServed();
  });

  it('refuses sends with a retryable error while Redis holds its connections open without answering, then serves sends again', async () => {
    const text = 'while Redis does not answer';
    redis.pause();
    let answers: [RawAnswer[], PromiseSettledResult<unknown>[]];
    try {
      answers = await Promise.all([
        Promise.all(
          [false, true].flatMap((immediately) => [
            jsonRpcSend(api.baseUrl, 'echo', text, immediately),
            restSend(api.baseUrl, 'echo', text, immediately),
          ]),
        ),
        Promise.allSettled([
          jsonRpcClient.sendMessage(userMessage(text)),
          collect(jsonRpcClient.sendMessageStream(userMessage(text))),
        ]),
      ]);
    } finally {
      redis.resume();
    }
    const [raw, viaSdk] = answers;
    await services.explain(() => {
      for (const [index, answer] of raw.entries()) {
        const error = index % 2 === 0 ? { code: -32603, message: UNAVAILABLE } : { code: 503, message: UNAVAILABLE };
        expect(answer).toMatchObject({ ...RETRYABLE, body: { error } });
      }
      for (const outcome of viaSdk)
        expect(outcome).toMatchObject({ status: 'rejected', reason: { message: UNAVAILABLE } });
    });
    await expectSendsServed();
  });

  it('registers the maintenance schedule again after Redis restarted without its data', async () => {
    const maintenance = new Queue(QueueName.Maintenance, {
      connection: { host: '127.0.0.1', port: redis.port },
      prefix: `${prefix}bull`,
    });
    try {
      const scheduled = () =>
        Promise.all(
          [JobName.TaskRetention, JobName.OrphanedTaskSweep].map((name) => maintenance.getJobScheduler(name)),
        );
      await eventually(scheduled, (schedulers) => schedulers.every(Boolean));
      const marker = new Redis(redis.url);
      await marker.set(`${prefix}marker`, 'before the restart');
      await redis.restart();
      // The restarted Redis is empty: the schedule went with its data.
      expect(await marker.get(`${prefix}marker`)).toBeNull();
      marker.disconnect();
      await services.explain(() => eventually(scheduled, (schedulers) => schedulers.every(Boolean), 15_000));
    } finally {
      await maintenance.close();
    }
  });
});
