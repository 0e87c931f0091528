/**
 * MCP Tasks (2025-11-25) on Switchboard's durable tasks, through the official 1.x SDK client's
 * experimental tasks API: an agent tool called as a task is the caller's A2A task (one id), its
 * status mapped, its result read when it ends, its question answered through `tasks/result`.
 */
import { GetTaskRequest, Role, TaskState } from '@a2a-js/sdk';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateTaskResultSchema,
  ElicitRequestSchema,
  TaskStatusNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { sdkClient } from '../../support/sdk-client';
import { TEST_AGENTS_TOML } from '../../support/test-agents';
import { writeConfigFile } from '../../support/config-file';
import { bearer, startTestApp, testConfig } from '../../support/test-app';
import { textOf } from '../support/mcp-clients';
import { BOOKER_TOML } from '../support/task-agents';

const OTHER_KEY = 'other-key-0123456789abcdef';

type Message = {
  type: string;
  task?: { taskId: string; status: string; statusMessage?: string };
  result?: object;
  error?: Error;
};

describe('MCP tasks (2025-11-25), with the 1.x SDK client', () => {
  let app: NestFastifyApplication;
  let url: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    ({ app, url } = await startTestApp(
      testConfig({
        SWITCHBOARD_CONFIG: writeConfigFile(TEST_AGENTS_TOML + BOOKER_TOML),
        SWITCHBOARD_API_KEYS: `tester=test-key-0123456789abcdef,other=${OTHER_KEY}`,
      }),
    ));
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await app?.close();
  });

  async function connect(key?: string, answer?: (message: string) => string): Promise<Client> {
    const client = new Client({ name: 'tasks-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    if (answer)
      client.setRequestHandler(ElicitRequestSchema, async (request) => ({
        action: 'accept',
        content: { answer: answer(request.params.message) },
      }));
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', url), { requestInit: { headers: bearer(key) } }),
    );
    // The client learns which tools may run as tasks from the list.
    await client.listTools();
    clients.push(client);
    return client;
  }

  async function stream(client: Client, tool: string, message: string): Promise<Message[]> {
    const seen: Message[] = [];
    for await (const item of client.experimental.tasks.callToolStream({ name: tool, arguments: { message } }))
      seen.push(item as Message);
    return seen;
  }

  it('declares tasks, and agent tools that may run as one', async () => {
    const client = await connect();
    expect(client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const { tools } = await client.listTools();
    expect(tools.find(({ name }) => name === 'switchboard_agent_echo')?.execution).toEqual({ taskSupport: 'optional' });
  });

  it('runs an agent as a task: created, followed, its result read; the same task over A2A', async () => {
    const client = await connect();
    const seen = await stream(client, 'switchboard_agent_echo', 'as a task');
    expect(seen[0]).toMatchObject({ type: 'taskCreated', task: { status: 'working' } });
    const result = seen.at(-1)!;
    expect(result.type).toBe('result');
    expect(textOf(result.result!)).toBe('as a task');
    const taskId = seen[0].task!.taskId;
    expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({
      taskId,
      status: 'completed',
      ttl: expect.any(Number),
      pollInterval: 1000,
    });
    const a2a = await sdkClient(url, 'echo', 'JSONRPC');
    expect((await a2a.getTask(GetTaskRequest.fromJSON({ id: taskId }))).status?.state).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );
    expect((await client.experimental.tasks.listTasks()).tasks.map((task) => task.taskId)).toContain(taskId);
  });

  it("runs subagent_start as a task: the subagent's task is the MCP task", async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.find(({ name }) => name === 'subagent_start')?.execution).toEqual({ taskSupport: 'optional' });
    const seen: Message[] = [];
    for await (const item of client.experimental.tasks.callToolStream({
      name: 'subagent_start',
      arguments: { subagentUri: 'a2a-agent://echo', text: 'through the bridge' },
    }))
      seen.push(item as Message);
    expect(seen[0]).toMatchObject({ type: 'taskCreated' });
    expect(textOf(seen.at(-1)!.result!)).toBe('through the bridge');
    const resource = await client.readResource({ uri: `a2a://task/${seen[0].task!.taskId}` });
    expect(JSON.parse((resource.contents[0] as { text: string }).text)).toMatchObject({
      agent: 'echo',
      state: 'completed',
    });
  });

  it('maps a failed turn to a failed task, with the reason as its status message', async () => {
    const seen = await stream(await connect(), 'switchboard_agent_broken', 'x');
    expect(seen.at(-1)).toMatchObject({ type: 'error' });
    expect(seen.at(-1)!.error!.message).toMatch(/boom|failed/i);
  });

  it('asks the caller the question of a task waiting for input, and takes the answer as its next message', async () => {
    const questions: string[] = [];
    const client = await connect(undefined, (question) => {
      questions.push(question);
      return 'Lisbon';
    });
    const seen = await stream(client, 'switchboard_agent_booker', 'book a flight');
    expect(questions).toEqual(['Which city?']);
    expect(seen.map(({ type }) => type)).toContain('taskStatus');
    expect(textOf(seen.at(-1)!.result!)).toBe('Booked.');
    const a2a = await sdkClient(url, 'booker', 'JSONRPC');
    const task = await a2a.getTask(GetTaskRequest.fromJSON({ id: seen[0].task!.taskId }));
    const sent = task.history.filter((message) => message.role === Role.ROLE_USER);
    expect(
      sent.map((message) => message.parts[0]?.content?.$case === 'text' && message.parts[0].content.value),
    ).toEqual(['book a flight', 'Lisbon']);
  });

  it('tells the session of each status change of a task it started, on its GET stream', async () => {
    const client = await connect();
    const statuses: string[] = [];
    const ended = new Promise<void>((resolve) =>
      client.setNotificationHandler(TaskStatusNotificationSchema, ({ params }) => {
        statuses.push(params.status);
        if (params.status === 'completed') resolve();
      }),
    );
    const [created] = await stream(client, 'switchboard_agent_slow', 'told');
    await ended;
    expect(statuses[0]).toBe('working');
    expect(statuses.at(-1)).toBe('completed');
    expect(await client.experimental.tasks.getTask(created.task!.taskId)).toMatchObject({ status: 'completed' });
  });

  it('cancels a task', async () => {
    const client = await connect();
    const created = await client.request(
      { method: 'tools/call', params: { name: 'switchboard_agent_slow', arguments: { message: 'long' }, task: {} } },
      CreateTaskResultSchema,
    );
    const cancelled = await client.experimental.tasks.cancelTask(created.task.taskId);
    expect(cancelled).toMatchObject({ taskId: created.task.taskId, status: 'cancelled' });
  });

  it("answers another caller's task as an unknown one, as it answers an absent one", async () => {
    const owner = await connect();
    const [created] = await stream(owner, 'switchboard_agent_echo', 'mine');
    const other = await connect(OTHER_KEY);
    const absent = await other.experimental.tasks
      .getTask('no-such-task')
      .catch((error: Error & { code: number }) => error);
    const foreign = await other.experimental.tasks
      .getTask(created.task!.taskId)
      .catch((error: Error & { code: number }) => error);
    expect(absent).toMatchObject({ code: -32602 });
    expect(foreign).toMatchObject({
      code: -32602,
      message: (absent as Error & { code: number }).message.replace('no-such-task', created.task!.taskId),
    });
    expect((await other.experimental.tasks.listTasks()).tasks.map((task) => task.taskId)).not.toContain(
      created.task!.taskId,
    );
  });
});
