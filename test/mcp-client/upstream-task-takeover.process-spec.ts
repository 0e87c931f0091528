/**
 * Upstream MCP tasks, durably (issue 28): durable mode, two API replicas and separate worker
 * processes, an upstream server over HTTP whose `sum` runs as an MCP task (2025-11-25). A worker
 * killed with SIGKILL while it waits for the upstream task leaves its turn to another worker, which
 * follows the same upstream task (its id is recorded in the turn's job progress) instead of calling
 * the tool again; an LLM agent's turn resumes from its recorded steps. A `/mcp` caller calling the
 * proxied tool as a task (2025-11-25, 2026-07-28) gets a durable Switchboard task that any replica
 * answers, which survives a worker kill the same way and whose result is the upstream's own. A
 * plain call (the upstream's `hold`, run as no task) cut off by the kill is not made again: a `/mcp`
 * tool-call task ends failed, and an LLM turn tells the model the call may or may not have taken effect.
 */
import { SendMessageRequest, type Task, TaskState } from '@a2a-js/sdk';
import type { Client as A2aClient } from '@a2a-js/sdk/client';
import { resultFromTaskOutcome, type SerializedTaskReference } from '@modelcontextprotocol/ext-tasks/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  RELATED_TASK_META_KEY,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { QueueName } from '../../src/queue/queue.constants';
import { artifactText, asTask, sdkClient } from '../support/sdk-client';
import { type ServiceProcess, ServiceProcesses, within } from '../support/service-processes';
import { QUICK_STALL_TOML } from '../support/test-agents';
import { ScriptedLlmServer } from '../agents/support/scripted-llm-server';
import { ExtTaskSessions } from '../mcp-server/support/ext-task-sessions';
import { connectV1, textOf } from '../mcp-server/support/mcp-clients';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import { TEST_API_KEY } from '../support/test-app';
import {
  createTestDatabase,
  deleteRedisKeys,
  type TestDatabase,
  testRedisPrefix,
  testRedisUrl,
} from '../support/test-database';
import { HttpTaskServer } from './fixtures/http-task-server';

jest.setTimeout(90_000);

const OTHER_KEY = 'other-key-0123456789abcdef';
const TOOL = 'mcp_up_sum';
/** The upstream's `hold`: called plainly, it answers only when released (never, here: its worker dies first). */
const HOLD_TOOL = 'mcp_up_hold';
/** Time enough for a new worker to boot, the stalled check to find the dead worker's turn, and the re-run to reach the upstream. */
const TAKEOVER_MS = 25_000;
/** Time enough for a worker to reach the upstream with a call it was handed. */
const UPSTREAM_REACHED_MS = 15_000;

describe('upstream MCP tasks when the worker waiting for one is killed', () => {
  let database: TestDatabase;
  let redisPrefix: string;
  let upstream: HttpTaskServer;
  let llm: ScriptedLlmServer;
  let services: ServiceProcesses;
  let a: ServiceProcess;
  let b: ServiceProcess;
  /** The worker running turns now; a test that kills it starts the next. */
  let worker: ServiceProcess;
  let workers = 0;
  const clients: Client[] = [];
  const sessions = new ExtTaskSessions();

  beforeAll(async () => {
    database = await createTestDatabase();
    redisPrefix = testRedisPrefix();
    [upstream, llm] = await Promise.all([HttpTaskServer.start(), ScriptedLlmServer.start()]);
    /** An agent of the scripted model offered the upstream's tool `tool`. */
    const agentWith = (name: string, tool: string) => `
[[agents]]
name = "${name}"
description = "Calls the upstream's ${tool}"
tools = ["${tool}"]
[agents.executor]
type = "llm"
base_url = "${llm.baseUrl}"
model = "test-model"
`;
    const config = `
[outbound]
allow_hosts = ["127.0.0.1"]
${QUICK_STALL_TOML}
[[mcp_servers]]
name = "up"
[mcp_servers.transport]
type = "http"
url = "${upstream.url}"
${agentWith('adder', TOOL)}${agentWith('holder', HOLD_TOOL)}`;
    services = new ServiceProcesses({
      SWITCHBOARD_CONFIG: writeConfigFile(config),
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      SWITCHBOARD_REDIS_PREFIX: redisPrefix,
      SWITCHBOARD_API_KEYS: `tester=${TEST_API_KEY},other=${OTHER_KEY}`,
    });
    [a, b, worker] = await Promise.all([services.api('api-a'), services.api('api-b'), nextWorker()]);
    // The model is offered the upstream's tool only once the worker has listed it; /mcp lists it once each replica has.
    await services.explain(async () => {
      await within(
        worker.logged('MCP server connected', '"server":"up"'),
        UPSTREAM_REACHED_MS,
        `${worker.name} connecting to the upstream`,
      );
      await Promise.all(
        [a, b].map(async (replica) =>
          eventually(
            async () => (await (await connect(replica)).listTools()).tools.map(({ name }) => name),
            (names) => names.includes(TOOL),
          ),
        ),
      );
    });
  });

  afterAll(async () => {
    await upstream?.release();
    upstream?.releaseHolds();
    await Promise.all(clients.map((client) => client.close()));
    await sessions.closeAll();
    await services?.stopAll();
    await llm?.close();
    await upstream?.close();
    if (redisPrefix) await deleteRedisKeys(redisPrefix);
    await database?.drop();
  });

  function nextWorker(): Promise<ServiceProcess> {
    return services.worker(`worker-${++workers}`);
  }

  async function connect(replica: ServiceProcess, key?: string): Promise<Client> {
    const { client } = await connectV1(replica.baseUrl, { key });
    clients.push(client);
    return client;
  }

  /** The id of the next task the upstream's `sum` creates (counting from now). */
  function nextUpstreamTask(): Promise<string> {
    const created = upstream.taskCreated(upstream.tasksCreated + 1);
    return services.explain(() => within(created, UPSTREAM_REACHED_MS, 'the upstream creating a task for sum'));
  }

  /** Resolves once the upstream's `hold` is called again (counting from now). */
  function nextHoldCall(): Promise<void> {
    const called = upstream.holdCalled(upstream.holdsCalled + 1);
    return services.explain(() => within(called, UPSTREAM_REACHED_MS, 'the upstream being called for hold'));
  }

  /** A message to an agent, answered at once with its task. */
  function ask(text: string): SendMessageRequest {
    return SendMessageRequest.fromJSON({
      message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] },
      configuration: { returnImmediately: true },
    });
  }

  /** Task `id` once it has ended, completed or failed, read through `client`: the turn taken over by the next worker. */
  function ended(client: A2aClient, id: string): Promise<Task> {
    return services.explain(() =>
      eventually(
        () => client.getTask({ id, tenant: '' }),
        (task) =>
          task.status?.state === TaskState.TASK_STATE_COMPLETED || task.status?.state === TaskState.TASK_STATE_FAILED,
        TAKEOVER_MS,
      ),
    );
  }

  /** SIGKILLs the worker running turns and starts the next; resolves with when it was killed. */
  async function killWorker(): Promise<number> {
    const killedAt = Date.now();
    expect(await worker.kill()).toBe('SIGKILL');
    worker = await nextWorker();
    return killedAt;
  }

  /**
   * Resolves once a running turn's BullMQ job has the upstream task's id in its progress: durable
   * before the kill, so the next worker can follow that task.
   */
  async function recordedInJobProgress(upstreamTaskId: string): Promise<void> {
    const { hostname, port } = new URL(testRedisUrl());
    const queues = Object.values(QueueName).map(
      (name) =>
        new Queue(name, { connection: { host: hostname, port: Number(port || 6379) }, prefix: `${redisPrefix}bull` }),
    );
    try {
      const progressOfActiveJobs = async () =>
        (await Promise.all(queues.map((queue) => queue.getJobs(['active']))))
          .flat()
          .map((job) => JSON.stringify(job.progress ?? null));
      await services.explain(() =>
        eventually(
          progressOfActiveJobs,
          (progress) => progress.some((text) => text.includes(upstreamTaskId)),
          UPSTREAM_REACHED_MS,
        ),
      );
    } finally {
      await Promise.all(queues.map((queue) => queue.close()));
    }
  }

  /**
   * SIGKILLs the worker running turns, starts the next, and waits until the upstream hears again of
   * task `upstreamTaskId` (the next worker following it) or is asked for another task (calling the
   * tool again); then says that it was the former. The upstream task is still working all along.
   */
  async function killWorkerAndExpectTakeover(upstreamTaskId: string): Promise<void> {
    const tasksBefore = upstream.tasksCreated;
    const killedAt = await killWorker();
    const followedAfterKill = () => upstream.requestsFor(upstreamTaskId).filter(({ at }) => at >= killedAt);
    await services.explain(() =>
      eventually(
        async () => ({ followed: followedAfterKill().length, created: upstream.tasksCreated }),
        ({ followed, created }) => followed > 0 || created > tasksBefore,
        TAKEOVER_MS,
      ),
    );
    expect(upstream.tasksCreated).toBe(tasksBefore);
    expect(followedAfterKill().map(({ method }) => method)).toContainEqual(
      expect.stringMatching(/^tasks\/(result|get)$/),
    );
  }

  it("2026-07-28 (ext-tasks): the proxied tool called as a task on replica A is polled on B to the upstream task's result", async () => {
    const tasksBefore = upstream.tasksCreated;
    const upstreamTask = nextUpstreamTask();
    const made = await (
      await sessions.open(a.baseUrl, 'modern')
    ).callTool<object>(TOOL, { a: 2, b: 3 }, { task: { preference: 'require' } });
    expect(made.kind).toBe('task');
    if (made.kind !== 'task') return;
    let reference: SerializedTaskReference | undefined;
    await made.handoff((handed) => {
      reference = handed;
    });
    const settled = (await (await sessions.open(b.baseUrl, 'modern')).resumeTask<object>(reference!)).settle();
    const upstreamTaskId = await upstreamTask;
    await upstream.release();
    const { outcome } = await services.explain(() => within(settled, 20_000, 'the task on replica B settling'));
    const result = resultFromTaskOutcome(outcome) as CallToolResult;
    expect(textOf(result)).toBe('5');
    expect(result.structuredContent).toEqual({ sum: 5 });
    // The upstream's task is Switchboard's business: its id (e.g. in the upstream's related-task _meta) names no task the caller knows.
    expect(JSON.stringify(result)).not.toContain(upstreamTaskId);
    expect(upstream.tasksCreated).toBe(tasksBefore + 1);
  });

  it("answers another key's tasks/get of a proxied tool's task as it answers an absent task", async () => {
    const upstreamTask = nextUpstreamTask();
    const { task } = await (
      await connect(a)
    ).request(
      { method: 'tools/call', params: { name: TOOL, arguments: { a: 1, b: 1 }, task: {} } },
      CreateTaskResultSchema,
    );
    const other = await connect(b, OTHER_KEY);
    const refusal = (request: Promise<unknown>) =>
      request.then(
        () => new Error('answered'),
        (error: Error) => error,
      );
    const absentId = '00000000-0000-4000-8000-000000000000';
    const [absent, foreign] = await Promise.all([
      refusal(other.experimental.tasks.getTask(absentId)),
      refusal(other.experimental.tasks.getTask(task.taskId)),
    ]);
    expect(foreign).toMatchObject({ code: -32602 });
    expect(absent).toMatchObject({ code: -32602 });
    expect(foreign.message).toBe(absent.message.replace(absentId, task.taskId));
    // The owner still reads it to its end.
    await upstreamTask;
    await upstream.release();
    expect(textOf(await (await connect(b)).experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema))).toBe(
      '2',
    );
  });

  it("an LLM agent's turn resumes on another worker, which follows the same upstream task and asks the model only what it had not answered", async () => {
    llm.play({ toolCalls: [{ name: TOOL, arguments: { a: 2, b: 3 } }] }, { tokens: ['The sum is ', '5', '.'] });
    const client = await sdkClient(a.baseUrl, 'adder', 'JSONRPC');
    const upstreamTask = nextUpstreamTask();
    const sent = asTask(await client.sendMessage(ask('What is 2 + 3?')));
    const upstreamTaskId = await upstreamTask;
    await recordedInJobProgress(upstreamTaskId);
    expect(llm.requests).toHaveLength(1);

    await killWorkerAndExpectTakeover(upstreamTaskId);
    await upstream.release();

    const done = await ended(client, sent.id);
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(done)).toBe('The sum is 5.');
    expect(llm.requests).toHaveLength(2);
    // The conversation as the model saw it after the takeover: the question once, its own tool call, the upstream task's result.
    expect(llm.requests[1].body.messages.map(({ role, content }) => [role, content])).toEqual([
      ['user', 'What is 2 + 3?'],
      ['assistant', null],
      ['tool', '5'],
    ]);
    expect(llm.requests[1].body.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_0', content: '5' });
  });

  it("2025-11-25: a task made on replica A for the proxied tool survives its worker's SIGKILL, and B gives the upstream's result", async () => {
    const upstreamTask = nextUpstreamTask();
    const { task } = await (
      await connect(a)
    ).request(
      { method: 'tools/call', params: { name: TOOL, arguments: { a: 2, b: 3 }, task: {} } },
      CreateTaskResultSchema,
    );
    expect(task.status).toBe('working');
    const onB = await connect(b);
    expect(await onB.experimental.tasks.getTask(task.taskId)).toMatchObject({ taskId: task.taskId, status: 'working' });
    const upstreamTaskId = await upstreamTask;
    await recordedInJobProgress(upstreamTaskId);

    await killWorkerAndExpectTakeover(upstreamTaskId);
    await upstream.release();

    const result = await services.explain(() =>
      onB.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema),
    );
    expect(textOf(result)).toBe('5');
    expect(result.structuredContent).toEqual({ sum: 5 });
    expect(result.isError).toBeFalsy();
    expect(result._meta?.[RELATED_TASK_META_KEY]).toEqual({ taskId: task.taskId });
    expect(JSON.stringify(result)).not.toContain(upstreamTaskId);
    expect(await (await connect(a)).experimental.tasks.getTask(task.taskId)).toMatchObject({
      taskId: task.taskId,
      status: 'completed',
    });
  });

  it('2025-11-25: a /mcp tool-call task whose tool ran as no upstream task ends failed after its worker dies', async () => {
    const holdsBefore = upstream.holdsCalled;
    const holdCalled = nextHoldCall();
    const { task } = await (
      await connect(a)
    ).request({ method: 'tools/call', params: { name: HOLD_TOOL, arguments: {}, task: {} } }, CreateTaskResultSchema);
    await holdCalled;

    await killWorker();

    const onB = await connect(b);
    const done = await services.explain(() =>
      eventually(
        () => onB.experimental.tasks.getTask(task.taskId),
        ({ status }) => status !== 'working',
        TAKEOVER_MS,
      ),
    );
    expect(done).toMatchObject({
      taskId: task.taskId,
      status: 'failed',
      statusMessage: expect.stringMatching(/may or may not have taken effect/),
    });
    // Nobody knows whether the cut-off call took effect: it is not made again.
    expect(upstream.holdsCalled).toBe(holdsBefore + 1);
  });

  it('an LLM turn whose plain tool call was cut off tells the model so', async () => {
    llm.play({ toolCalls: [{ name: HOLD_TOOL, arguments: {} }] }, { tokens: ['The hold ', 'was cut off.'] });
    const client = await sdkClient(a.baseUrl, 'holder', 'JSONRPC');
    const holdsBefore = upstream.holdsCalled;
    const holdCalled = nextHoldCall();
    const sent = asTask(await client.sendMessage(ask('Hold, please.')));
    await holdCalled;
    expect(llm.requests).toHaveLength(1);

    await killWorker();

    const done = await ended(client, sent.id);
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(done)).toBe('The hold was cut off.');
    expect(llm.requests).toHaveLength(2);
    const toolResult = llm.requests[1].body.messages.at(-1);
    expect(toolResult).toMatchObject({
      role: 'tool',
      tool_call_id: 'call_0',
      content: expect.stringMatching(/cut off/),
    });
    expect(toolResult?.content).toMatch(/may or may not have taken effect/);
    expect(upstream.holdsCalled).toBe(holdsBefore + 1);
  });
});
