/**
 * The series an agent turn leaves, read from real processes: an LLM agent on a `switchboard worker`
 * calls a tool of server-everything (stdio) for a `switchboard serve` in durable mode (Postgres,
 * Redis). The worker that ran the turn serves its outcome, tool call, queue wait and MCP server
 * state on its health port; the API serves the request, the task and the open streams.
 */
import { type StreamResponse, TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { asTask, sdkClient, userMessage } from '../support/sdk-client';
import { type ServiceProcess, ServiceProcesses, stateOf } from '../support/service-processes';
import { ScriptedLlmServer } from '../agents/support/scripted-llm-server';
import { stdioServer } from '../mcp-client/support/mcp-app';
import { EVERYTHING_SERVER } from '../mcp-client/support/mcp-servers';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import { freePort } from '../support/free-port';
import { bearer } from '../support/test-app';
import {
  createTestDatabase,
  deleteRedisKeys,
  type TestDatabase,
  testRedisPrefix,
  testRedisUrl,
} from '../support/test-database';
import { scrape, valueOf } from './support/scrape';

jest.setTimeout(60_000);

const ECHO = 'mcp_everything_echo';
const LONG_RUNNING = 'mcp_everything_trigger_long_running_operation';

let database: TestDatabase;
let redisPrefix: string;
let llm: ScriptedLlmServer;
let services: ServiceProcesses;
let api: ServiceProcess;
let worker: ServiceProcess;
let workerMetrics: string;
let client: Client;

beforeAll(async () => {
  database = await createTestDatabase();
  redisPrefix = testRedisPrefix();
  llm = await ScriptedLlmServer.start();
  const healthPort = await freePort();
  workerMetrics = `http://127.0.0.1:${healthPort}/metrics`;
  const toml = `
[outbound]
allow_hosts = ["127.0.0.1"]

[[agents]]
name = "assistant"
tools = ${JSON.stringify([ECHO, LONG_RUNNING])}
[agents.executor]
type = "llm"
base_url = "${llm.baseUrl}"
model = "test-model"
${stdioServer('everything', EVERYTHING_SERVER, ['stdio'])}`;
  services = new ServiceProcesses({
    DATABASE_URL: database.url,
    REDIS_URL: testRedisUrl(),
    SWITCHBOARD_REDIS_PREFIX: redisPrefix,
    SWITCHBOARD_CONFIG: writeConfigFile(toml),
    SWITCHBOARD_WORKER_HEALTH_PORT: String(healthPort),
  });
  worker = await services.worker('worker');
  // The model is offered the server's tools only once the worker has listed them.
  await worker.logged('MCP server connected', '"server":"everything"');
  api = await services.api('api');
  client = await sdkClient(api.baseUrl, 'assistant', 'JSONRPC');
});

afterAll(async () => {
  await services?.stopAll();
  await llm?.close();
  if (redisPrefix) await deleteRedisKeys(redisPrefix);
  await database?.drop();
});

it("serves a completed turn's outcome, MCP tool call and queue wait on the worker, and its request and task on the API", async () => {
  llm.play(
    { toolCalls: [{ name: ECHO, arguments: { message: 'from the model' } }] },
    { tokens: ['The tool said it.'] },
  );
  const task = asTask(await client.sendMessage(userMessage('Use the echo tool')));
  expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  // Logged once the turn is counted; the API may answer a moment before.
  await worker.logged('agent turn ended', task.id);

  await services.explain(async () => {
    const onWorker = await scrape(workerMetrics);
    expect(
      valueOf(onWorker, 'switchboard_agent_turn_duration_seconds_count', { agent: 'assistant', outcome: 'completed' }),
    ).toBe(1);
    expect(
      valueOf(onWorker, 'switchboard_tool_call_duration_seconds_count', {
        kind: 'mcp',
        server: 'everything',
        outcome: 'ok',
      }),
    ).toBe(1);
    expect(valueOf(onWorker, 'switchboard_queue_wait_seconds_count', { queue: 'agent-turns' })).toBe(1);
    expect(valueOf(onWorker, 'switchboard_mcp_server_up', { server: 'everything' })).toBe(1);

    const onApi = await scrape(`${api.baseUrl}/metrics`);
    expect(
      valueOf(onApi, 'switchboard_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/a2a/agents/:name',
        status: '200',
      }),
    ).toBe(1);
    expect(valueOf(onApi, 'switchboard_tasks', { state: 'TASK_STATE_COMPLETED' })).toBe(1);
    expect(valueOf(onApi, 'switchboard_queue_jobs', { queue: 'agent-turns', state: 'active' })).toBe(0);
    // Turns run on the worker only.
    expect(valueOf(onApi, 'switchboard_agent_turn_duration_seconds_count', { agent: 'assistant' })).toBeUndefined();
  });
});

it('counts an A2A stream as open while its turn runs, and the turn canceled once it ends so', async () => {
  llm.play({ toolCalls: [{ name: LONG_RUNNING, arguments: { duration: 60, steps: 1 } }] });
  const events = client.sendMessageStream(userMessage('Take your time'))[Symbol.asyncIterator]();
  const first = (await events.next()).value as StreamResponse;
  const taskId = first.payload?.$case === 'task' ? first.payload.value.id : undefined;
  expect(taskId).toBeDefined();

  // The turn waits on a 60 s tool until it is canceled: the stream is open.
  expect(valueOf(await scrape(`${api.baseUrl}/metrics`), 'switchboard_open_streams', { protocol: 'a2a' })).toBe(1);

  await client.cancelTask({ id: taskId!, tenant: '' } as never);
  let last: StreamResponse | undefined;
  for (let next = await events.next(); !next.done; next = await events.next()) last = next.value;
  expect(stateOf(last)).toBe(TaskState.TASK_STATE_CANCELED);
  await worker.logged('agent turn ended', taskId!);
  expect(
    valueOf(await scrape(workerMetrics), 'switchboard_agent_turn_duration_seconds_count', {
      agent: 'assistant',
      outcome: 'canceled',
    }),
  ).toBe(1);
  // The server hears the stream's close after the client has read its end.
  await eventually(
    async () => valueOf(await scrape(`${api.baseUrl}/metrics`), 'switchboard_open_streams', { protocol: 'a2a' }),
    (open) => open === 0,
  );
  // The first test's send and this cancel; a stream's duration is no latency, so it is left out.
  const requests = valueOf(await scrape(`${api.baseUrl}/metrics`), 'switchboard_http_request_duration_seconds_count', {
    method: 'POST',
    route: '/a2a/agents/:name',
    status: '200',
  });
  expect(requests).toBe(2);
});

it('counts an open 2025-era /mcp session and its GET stream', async () => {
  const mcp = `${api.baseUrl}/mcp`;
  const headers = {
    ...bearer(),
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'mcp-protocol-version': '2025-06-18',
  };
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'metrics-test', version: '1.0.0' } },
  };
  const opened = await fetch(mcp, { method: 'POST', headers, body: JSON.stringify(initialize) });
  await opened.text();
  const sessionId = opened.headers.get('mcp-session-id')!;
  expect(sessionId).toBeTruthy();

  const listening = new AbortController();
  const stream = await fetch(mcp, { headers: { ...headers, 'mcp-session-id': sessionId }, signal: listening.signal });
  expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
  try {
    const onApi = await scrape(`${api.baseUrl}/metrics`);
    expect(valueOf(onApi, 'switchboard_mcp_sessions')).toBe(1);
    expect(valueOf(onApi, 'switchboard_open_streams', { protocol: 'mcp' })).toBe(1);
  } finally {
    listening.abort();
  }
  await eventually(
    async () => valueOf(await scrape(`${api.baseUrl}/metrics`), 'switchboard_open_streams', { protocol: 'mcp' }),
    (open) => open === 0,
  );
  await fetch(mcp, { method: 'DELETE', headers: { ...headers, 'mcp-session-id': sessionId } });
  expect(valueOf(await scrape(`${api.baseUrl}/metrics`), 'switchboard_mcp_sessions')).toBe(0);
});
