/**
 * Every stream and blocking call that follows a task ends with the turn's last event or with an
 * explicit error naming the task, never as if the turn were over: when Redis loses the stream
 * (restarted without persistence), stays unreachable or stops answering, and when the API is stopped with SIGTERM
 * (drained up to `server.shutdown_timeout_secs`, then an error). A cut read connection is not a
 * fault the client sees. Real API and worker processes, a Redis of the test's own for the outages,
 * the official A2A and MCP SDK clients.
 */
import { ListTasksRequest, type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { connectV1, TASK_ID_MESSAGE, textOf } from '../mcp-server/support/mcp-clients';
import { asTask, sdkClient, userMessage } from '../support/sdk-client';
import { type ServiceProcess, ServiceProcesses, stateOf, within } from '../support/service-processes';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import { RedisProcess } from '../support/redis-process';
import {
  createTestDatabase,
  deleteRedisKeys,
  type TestDatabase,
  testRedisPrefix,
  testRedisUrl,
} from '../support/test-database';
import { follow, type Followed, postSse } from './support/followed-streams';
import { jsonRpcSend, restSend } from './support/store-outage-clients';

jest.setTimeout(90_000);

/** `glacial` (the primary agent, so the seeds' route reaches it) takes 10 s a turn; `steady` 4 s. */
const AGENTS = `
[[agents]]
name = "glacial"
[agents.executor]
type = "echo"
chunks = 10
delay_ms = 1000

[[agents]]
name = "steady"
[agents.executor]
type = "echo"
chunks = 4
delay_ms = 1000
`;
const TEXT = 'abcdefghij';
const INTERRUPTED = /Stopped following task ([0-9a-f-]{36}) before its turn ended/;

/** The v0.3 JSON-RPC request (no `A2A-Version` header) and the seeds' REST form of a streamed message. */
const legacyStream = () => ({
  jsonrpc: '2.0',
  id: 7,
  method: 'message/stream',
  params: {
    message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text: TEXT }] },
  },
});
const seedStream = () => ({ message: { role: 'user', parts: [{ type: 'text', text: TEXT }] } });

function taskIdOf(events: StreamResponse[]): string | undefined {
  const first = events[0]?.payload;
  return first?.$case === 'task' ? first.value.id : first?.$case === 'statusUpdate' ? first.value.taskId : undefined;
}

/** The id of the task an interruption names. */
function interruptedTask(message: string | undefined): string | undefined {
  return INTERRUPTED.exec(message ?? '')?.[1];
}

/** How many of the caller's tasks are working, read over A2A. */
/** How many of `agent`'s tasks are working, as its own endpoint lists them (an agent's endpoint lists its tasks only). */
async function workingTasks(baseUrl: string, agent = 'glacial'): Promise<number> {
  const client = await sdkClient(baseUrl, agent, 'JSONRPC');
  const { tasks } = await client.listTasks(ListTasksRequest.fromJSON({ pageSize: 100, status: 'TASK_STATE_WORKING' }));
  return tasks.length;
}

/** Closes the Redis connections named `name` (as a proxy or a network fault would), without touching the data. */
async function killConnections(url: string, name: string): Promise<number> {
  const admin = new Redis(url);
  try {
    const list = (await admin.client('LIST')) as string;
    const ids = list
      .split('\n')
      .filter((line) => line.includes(` name=${name} `))
      .map((line) => /^id=(\d+)/.exec(line)![1]);
    for (const id of ids) await admin.client('KILL', 'ID', id);
    return ids.length;
  } finally {
    admin.disconnect();
  }
}

describe('streams when Redis fails under them', () => {
  let redis: RedisProcess;
  let database: TestDatabase;
  let services: ServiceProcesses;
  let api: ServiceProcess;

  beforeAll(async () => {
    [redis, database] = await Promise.all([RedisProcess.start(), createTestDatabase()]);
    services = new ServiceProcesses({
      SWITCHBOARD_CONFIG: writeConfigFile(AGENTS),
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      SWITCHBOARD_REDIS_PREFIX: 'sbfault:',
    });
    [api] = await Promise.all([services.api('api'), services.worker('worker')]);
  });

  afterAll(async () => {
    await services?.stopAll();
    await redis?.stop();
    await database?.drop();
  });

  it('goes on through a cut read connection: every event arrives and the stream ends completed', async () => {
    const client = await sdkClient(api.baseUrl, 'steady', 'JSONRPC');
    const stream = follow(client.sendMessageStream(userMessage('abcd')));
    await stream.started;
    expect(await killConnections(redis.url, 'switchboard:blocking-reads')).toBeGreaterThan(0);
    await services.explain(async () => {
      expect(await within(stream.ended, 20_000, 'the stream')).toBeUndefined();
      expect(stream.events.filter((event) => event.payload?.$case === 'artifactUpdate')).toHaveLength(4);
      expect(stateOf(stream.events.at(-1))).toBe(TaskState.TASK_STATE_COMPLETED);
    });
  });

  it('ends every kind of stream, and a blocking call, with an error naming the task when Redis restarts without its data', async () => {
    const jsonRpc = await sdkClient(api.baseUrl, 'glacial', 'JSONRPC');
    const rest = await sdkClient(api.baseUrl, 'glacial', 'HTTP+JSON');
    const sdkStreams: Record<string, Followed<StreamResponse>> = {
      'v1.0 JSON-RPC SendStreamingMessage': follow(jsonRpc.sendMessageStream(userMessage(TEXT))),
      'HTTP+JSON message:stream': follow(rest.sendMessageStream(userMessage(TEXT))),
    };
    const rawStreams = {
      'v0.3 JSON-RPC message/stream': follow(postSse(`${api.baseUrl}/a2a/agents/glacial`, legacyStream())),
      'seed POST /a2a/tasks/send/stream': follow(postSse(`${api.baseUrl}/a2a/tasks/send/stream`, seedStream())),
    };
    const blocking = jsonRpc.sendMessage(userMessage(TEXT)).then(
      () => undefined,
      (error: Error) => error,
    );
    await Promise.all([...Object.values(sdkStreams), ...Object.values(rawStreams)].map((stream) => stream.started));
    const streamedTask = taskIdOf(sdkStreams['v1.0 JSON-RPC SendStreamingMessage'].events)!;
    sdkStreams['v1.0 SubscribeToTask'] = follow(jsonRpc.resubscribeTask({ id: streamedTask, tenant: '' }));
    await sdkStreams['v1.0 SubscribeToTask'].started;
    await eventually(
      () => workingTasks(api.baseUrl),
      (working) => working >= 5,
    );

    await redis.restart();

    await services.explain(async () => {
      for (const [name, stream] of Object.entries(sdkStreams)) {
        const error = await within(stream.ended, 20_000, name);
        expect({ name, task: interruptedTask(error?.message) }).toEqual({ name, task: taskIdOf(stream.events) });
      }
      for (const [name, stream] of Object.entries(rawStreams)) {
        expect(await within(stream.ended, 20_000, name)).toBeUndefined();
        const last = stream.events.at(-1) as { error?: { code: number; message: string } };
        expect({ name, code: last.error?.code, interrupted: INTERRUPTED.test(last.error?.message ?? '') }).toEqual({
          name,
          code: -32603,
          interrupted: true,
        });
      }
      expect(interruptedTask((await within(blocking, 20_000, 'the blocking call'))?.message)).toBeDefined();
    });
  });

  it('ends a stream with an error naming the task when Redis stays unreachable past the retry window', async () => {
    await expectStreamInterruptedBy(
      () => redis.stop(),
      () => redis.restart(),
    );
  });

  it('ends a stream with an error naming the task when Redis holds its connections open without answering', async () => {
    await expectStreamInterruptedBy(
      async () => redis.pause(),
      async () => redis.resume(),
    );
  });

  /** A stream under way, then `fault` until it ends: it ends with an error that names its task. */
  async function expectStreamInterruptedBy(fault: () => Promise<void>, repair: () => Promise<void>): Promise<void> {
    const client = await sdkClient(api.baseUrl, 'glacial', 'JSONRPC');
    const stream = follow(client.sendMessageStream(userMessage(TEXT)));
    await stream.started;
    await fault();
    try {
      const error = await services.explain(() => within(stream.ended, 30_000, 'the stream'));
      expect(interruptedTask(error?.message)).toBe(taskIdOf(stream.events));
    } finally {
      await repair();
    }
  }
});

describe('calls in flight at SIGTERM', () => {
  let database: TestDatabase;
  const redisPrefix = testRedisPrefix();
  let shared: Record<string, string>;
  /** Processes with a drain long enough for a `steady` turn, and with one far shorter than a `glacial` one. */
  let patient: ServiceProcesses;
  let hasty: ServiceProcesses;

  beforeAll(async () => {
    database = await createTestDatabase();
    shared = { DATABASE_URL: database.url, REDIS_URL: testRedisUrl(), SWITCHBOARD_REDIS_PREFIX: redisPrefix };
    patient = new ServiceProcesses({
      ...shared,
      SWITCHBOARD_CONFIG: writeConfigFile(`${AGENTS}\n[server]\nshutdown_timeout_secs = 15\n`),
    });
    hasty = new ServiceProcesses({
      ...shared,
      SWITCHBOARD_CONFIG: writeConfigFile(`${AGENTS}\n[server]\nshutdown_timeout_secs = 3\n`),
    });
    await patient.worker('worker');
  });

  afterAll(async () => {
    await Promise.all([patient?.stopAll(), hasty?.stopAll()]);
    await deleteRedisKeys(redisPrefix);
    await database?.drop();
  });

  /** A stream, a blocking call and an MCP agent call, all to `agent`, each started (its task working) before this resolves. */
  async function callsInFlight(api: ServiceProcess, agent: string) {
    const jsonRpc = await sdkClient(api.baseUrl, agent, 'JSONRPC');
    const rest = await sdkClient(api.baseUrl, agent, 'HTTP+JSON');
    const streams = {
      'JSON-RPC': follow(jsonRpc.sendMessageStream(userMessage(TEXT))),
      'HTTP+JSON': follow(rest.sendMessageStream(userMessage(TEXT))),
    };
    const before = await workingTasks(api.baseUrl, agent);
    const blocking = jsonRpc.sendMessage(userMessage(TEXT)).then(
      (result) => asTask(result),
      (error: Error) => error,
    );
    const { client: mcp } = await connectV1(api.baseUrl);
    let mcpTask: string | undefined;
    const mcpCall = mcp.callTool({ name: `switchboard_agent_${agent}`, arguments: { message: TEXT } }, undefined, {
      onprogress: (progress) => (mcpTask ??= TASK_ID_MESSAGE.exec(progress.message ?? '')?.[1]),
    });
    await Promise.all(Object.values(streams).map((stream) => stream.started));
    await eventually(async () => mcpTask, Boolean);
    await eventually(
      () => workingTasks(api.baseUrl, agent),
      (working) => working >= before + 2,
    );
    return { streams, blocking, mcpCall, mcpTask: mcpTask!, close: () => mcp.close() };
  }

  it('drains: calls in flight get their turns\u2019 last events, new requests are answered 503, and the API exits 0', async () => {
    const api = await patient.api('patient-api');
    const calls = await callsInFlight(api, 'steady');
    const exited = api.stop();
    await eventually(
      () =>
        fetch(`${api.baseUrl}/healthz`).then(
          (response) => response.status,
          () => 0,
        ),
      (status) => status === 503,
    );
    await patient.explain(async () => {
      for (const [name, stream] of Object.entries(calls.streams)) {
        expect({ name, error: await within(stream.ended, 10_000, name) }).toEqual({ name, error: undefined });
        expect({ name, state: stateOf(stream.events.at(-1)) }).toEqual({ name, state: TaskState.TASK_STATE_COMPLETED });
      }
      expect(((await within(calls.blocking, 10_000, 'the blocking call')) as Task).status?.state).toBe(
        TaskState.TASK_STATE_COMPLETED,
      );
      const result = await within(calls.mcpCall, 10_000, 'the MCP call');
      expect({ isError: result.isError, text: textOf(result) }).toEqual({ isError: undefined, text: TEXT });
      expect(await exited).toBe(0);
    });
    await calls.close();
  });

  it('past the drain, ends each call in flight with an error naming its task, which goes on', async () => {
    const [api, other] = await Promise.all([hasty.api('hasty-api'), patient.api('other-api')]);
    const calls = await callsInFlight(api, 'glacial');
    const signalled = Date.now();
    const exited = api.stop();
    await hasty.explain(async () => {
      const tasks: string[] = [];
      for (const [name, stream] of Object.entries(calls.streams)) {
        const error = await within(stream.ended, 10_000, name);
        expect({ name, message: error?.message }).toEqual({
          name,
          message: expect.stringMatching(/this server is shutting down/),
        });
        expect(interruptedTask(error?.message)).toBe(taskIdOf(stream.events));
        tasks.push(taskIdOf(stream.events)!);
      }
      const blocking = (await within(calls.blocking, 10_000, 'the blocking call')) as Error;
      expect(blocking.message).toMatch(INTERRUPTED);
      tasks.push(interruptedTask(blocking.message)!);
      const result = await within(calls.mcpCall, 10_000, 'the MCP call');
      expect(result.isError).toBe(true);
      expect(interruptedTask(textOf(result))).toBe(calls.mcpTask);
      expect(result.structuredContent).toEqual({ taskId: calls.mcpTask, state: 'TASK_STATE_WORKING' });
      tasks.push(calls.mcpTask);
      expect(await exited).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(3_000);

      const client = await sdkClient(other.baseUrl, 'glacial', 'JSONRPC');
      for (const id of tasks) {
        await eventually(
          async () => (await client.getTask({ id, tenant: '' })).status?.state,
          (state) => state === TaskState.TASK_STATE_COMPLETED,
          20_000,
        );
      }
    });
    await calls.close();
  });

  it('past the drain, answers blocking sends with the retryable 503 of other refusals, naming the task', async () => {
    const api = await hasty.api('hasty-blocking-api');
    const before = await workingTasks(api.baseUrl);
    const sends = {
      'JSON-RPC': jsonRpcSend(api.baseUrl, 'glacial', TEXT),
      'HTTP+JSON': restSend(api.baseUrl, 'glacial', TEXT),
    };
    await eventually(
      () => workingTasks(api.baseUrl),
      (working) => working >= before + 2,
    );
    const exited = api.stop();
    await hasty.explain(async () => {
      const rpc = await within(sends['JSON-RPC'], 10_000, 'the JSON-RPC send');
      const rpcError = rpc.body.error as { code: number; message: string };
      expect({ status: rpc.status, retryAfter: rpc.retryAfter, code: rpcError.code }).toEqual({
        status: 503,
        retryAfter: '5',
        code: -32603,
      });
      expect(rpcError.message).toMatch(/this server is shutting down/);
      const rest = await within(sends['HTTP+JSON'], 10_000, 'the HTTP+JSON send');
      expect({ status: rest.status, retryAfter: rest.retryAfter }).toEqual({ status: 503, retryAfter: '5' });
      expect((rest.body.error as { message: string }).message).toMatch(/this server is shutting down/);
      const tasks = [
        interruptedTask(rpcError.message),
        interruptedTask((rest.body.error as { message: string }).message),
      ];
      expect(tasks.every(Boolean)).toBe(true);
      expect(await exited).toBe(0);
    });
  });
});
