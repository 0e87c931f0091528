/**
 * MCP Tasks in durable mode across two API processes and separate worker processes (Postgres,
 * Redis, BullMQ): a task made on replica A is read, awaited and cancelled on replica B (2025-11-25,
 * the 1.x SDK client), or taken up there, its question answered (2026-07-28, ext-tasks); a worker
 * killed with SIGKILL mid-task leaves a task that still ends, and every replica says so; another
 * key's task is the same unknown task as an absent one.
 */
import { resultFromTaskOutcome, type SerializedTaskReference } from '@modelcontextprotocol/ext-tasks/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { writeConfigFile } from '../../support/config-file';
import { eventually } from '../../support/eventually';
import { TEST_API_KEY } from '../../support/test-app';
import {
  createTestDatabase,
  deleteRedisKeys,
  type TestDatabase,
  testRedisPrefix,
  testRedisUrl,
} from '../../support/test-database';
import { sdkClient } from '../../support/sdk-client';
import { type ServiceProcess, ServiceProcesses } from '../../support/service-processes';
import { LONG_AGENT_TOML, QUICK_STALL_TOML, TEST_AGENTS_TOML } from '../../support/test-agents';
import { callAsTask, ExtTaskSessions } from '../support/ext-task-sessions';
import { connectV1, textOf } from '../support/mcp-clients';
import { BOOKER_TOML } from '../support/task-agents';

jest.setTimeout(60_000);

const OTHER_KEY = 'other-key-0123456789abcdef';
/** Time enough for the stalled check to find a dead worker's turn and the re-run to end the task. */
const ORPHAN_ENDED_MS = 20_000;

const CONFIG = TEST_AGENTS_TOML + BOOKER_TOML + LONG_AGENT_TOML + QUICK_STALL_TOML;

type TaskStatus = { taskId: string; status: string; statusMessage?: string };

describe('MCP tasks across two API replicas and worker processes', () => {
  let database: TestDatabase;
  let redisPrefix: string;
  let services: ServiceProcesses;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let firstWorker: ServiceProcess;
  const clients: Client[] = [];
  const sessions = new ExtTaskSessions();

  beforeAll(async () => {
    database = await createTestDatabase();
    redisPrefix = testRedisPrefix();
    services = new ServiceProcesses({
      SWITCHBOARD_CONFIG: writeConfigFile(CONFIG),
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      SWITCHBOARD_REDIS_PREFIX: redisPrefix,
      SWITCHBOARD_API_KEYS: `tester=${TEST_API_KEY},other=${OTHER_KEY}`,
    });
    // One worker until the kill test starts a second: the first one takes every turn before it.
    [a, b, firstWorker] = await Promise.all([
      services.api('api-a'),
      services.api('api-b'),
      services.worker('worker-1'),
    ]);
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await sessions.closeAll();
    await services?.stopAll();
    if (redisPrefix) await deleteRedisKeys(redisPrefix);
    await database?.drop();
  });

  async function connect(replica: ServiceProcess, key?: string): Promise<Client> {
    const { client } = await connectV1(replica.baseUrl, { key });
    clients.push(client);
    return client;
  }

  /** Calls agent `agent` as a task on `client`'s replica: the task as the call's answer. */
  async function startTask(client: Client, agent: string, message: string): Promise<TaskStatus> {
    const { task } = await client.request(
      { method: 'tools/call', params: { name: `switchboard_agent_${agent}`, arguments: { message }, task: {} } },
      CreateTaskResultSchema,
    );
    return task;
  }

  /** Waits until tasks/get on `client`'s replica answers a status that `done` accepts. */
  function statusOn(
    client: Client,
    taskId: string,
    done: (task: TaskStatus) => boolean,
    timeoutMs?: number,
  ): Promise<TaskStatus> {
    return services.explain(() => eventually(() => client.experimental.tasks.getTask(taskId), done, timeoutMs));
  }

  /** Resolves once the worker has streamed a chunk of task `taskId`: its turn is running. */
  async function running(taskId: string): Promise<void> {
    const a2a = await sdkClient(a.baseUrl, 'long', 'JSONRPC');
    await services.explain(() =>
      eventually(
        () => a2a.getTask({ id: taskId, tenant: '' }),
        (task) => task.artifacts.length > 0,
      ),
    );
  }

  it('makes a task on replica A whose status and result replica B answers', async () => {
    const task = await startTask(await connect(a), 'echo', 'made on A');
    expect(task.status).toBe('working');
    const onB = await connect(b);
    const result = await onB.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(textOf(result)).toBe('made on A');
    expect(await onB.experimental.tasks.getTask(task.taskId)).toMatchObject({
      taskId: task.taskId,
      status: 'completed',
    });
    expect((await onB.experimental.tasks.listTasks()).tasks.map(({ taskId }) => taskId)).toContain(task.taskId);
  });

  it('cancels from replica B a task made on A while a worker runs it; both replicas say cancelled', async () => {
    const task = await startTask(await connect(a), 'long', 'abcdefghijklmnopqrst');
    await running(task.taskId);
    const onB = await connect(b);
    expect(await onB.experimental.tasks.cancelTask(task.taskId)).toMatchObject({
      taskId: task.taskId,
      status: 'cancelled',
    });
    await statusOn(await connect(a), task.taskId, ({ status }) => status === 'cancelled');
    await expect(onB.experimental.tasks.cancelTask(task.taskId)).rejects.toMatchObject({ code: -32602 });
  });

  it('2026-07-28 (ext-tasks): a task made on A is taken up on B, which answers its question and reads its result', async () => {
    const made = await callAsTask(await sessions.open(a.baseUrl, 'modern'), 'booker', 'book a flight');
    let reference: SerializedTaskReference | undefined;
    await made.handoff((handed) => {
      reference = handed;
    });
    const questions: string[] = [];
    const answer = (question: string) => {
      questions.push(question);
      return 'Lisbon';
    };
    const onB = await sessions.open(b.baseUrl, 'modern', { answer });
    const { outcome } = await (await onB.resumeTask<object>(reference!)).settle();
    expect(questions).toEqual(['Which city?']);
    expect(textOf(resultFromTaskOutcome(outcome))).toBe('Booked.');
  });

  it("answers another key's task as it answers an absent one, on every method", async () => {
    const task = await startTask(await connect(a), 'echo', 'not yours');
    const other = await connect(b, OTHER_KEY);
    /** The error a request ends with (an answer would be a leak, so it is an error without a code). */
    const refusal = (request: Promise<unknown>) =>
      request.then(
        () => new Error('answered'),
        (error: Error) => error,
      );
    const refusals = (taskId: string) =>
      Promise.all([
        refusal(other.experimental.tasks.getTask(taskId)),
        refusal(other.experimental.tasks.getTaskResult(taskId, CallToolResultSchema)),
        refusal(other.experimental.tasks.cancelTask(taskId)),
      ]);
    const absentId = '00000000-0000-4000-8000-000000000000';
    const [absent, foreign] = await Promise.all([refusals(absentId), refusals(task.taskId)]);
    for (const [index, error] of foreign.entries()) {
      expect(error).toMatchObject({ code: -32602 });
      expect(error.message).toBe(absent[index].message.replace(absentId, task.taskId));
    }
    expect((await other.experimental.tasks.listTasks()).tasks.map(({ taskId }) => taskId)).not.toContain(task.taskId);
  });

  it('ends a task whose worker is killed with SIGKILL mid-turn, and every replica says so', async () => {
    const task = await startTask(await connect(a), 'long', 'abcdefghijklmnopqrst');
    await running(task.taskId);
    await services.worker('worker-2');
    expect(await firstWorker.kill()).toBe('SIGKILL');
    // The surviving worker's stalled check finds the dead worker's turn, and its re-run ends the task.
    const ended = await statusOn(await connect(b), task.taskId, ({ status }) => status !== 'working', ORPHAN_ENDED_MS);
    expect(ended.status).toBe('failed');
    expect(ended.statusMessage).toBe('The worker running this task stopped before the turn finished.');
    expect(await (await connect(a)).experimental.tasks.getTask(task.taskId)).toMatchObject({
      status: 'failed',
      statusMessage: ended.statusMessage,
    });
    const result = await (await connect(a)).experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBe(true);
  });
});
