/**
 * The docker-compose stack as a user runs it, driven from outside the containers with the official
 * A2A and MCP clients. Run by test/deploy/run.sh, which builds the images and brings the stack up
 * (`npm run test:deploy`); it hands over the stack's URL, key and compose project.
 */
import { CancelTaskRequest, GetTaskRequest, StreamResponse, Task, TaskState } from '@a2a-js/sdk';
import { Client, ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';
import { Client as McpClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { SendMessageRequest } from '@a2a-js/sdk';
import { eventually } from '../support/eventually';

const run = promisify(execFile);
const { DEPLOY_URL, DEPLOY_API_KEY, COMPOSE_PROJECT_NAME } = process.env;
if (!DEPLOY_URL || !DEPLOY_API_KEY || !COMPOSE_PROJECT_NAME) throw new Error('run through test/deploy/run.sh (npm run test:deploy): DEPLOY_URL, DEPLOY_API_KEY and COMPOSE_PROJECT_NAME are unset');
const url = DEPLOY_URL;

jest.setTimeout(180_000);

const withKey: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set('authorization', `Bearer ${DEPLOY_API_KEY}`);
  return fetch(input, { ...init, headers });
};

function a2a(agent: string): Promise<Client> {
  return new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl: withKey }), new RestTransportFactory({ fetchImpl: withKey })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl: withKey }),
  }).createFromUrl(url, `/a2a/agents/${agent}/agent-card.json`);
}

function message(text: string): SendMessageRequest {
  return SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] } });
}

function artifactText(task: Task): string {
  return task.artifacts.flatMap((artifact) => artifact.parts).map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
}

function stateOf(event: StreamResponse | undefined): TaskState | undefined {
  const payload = event?.payload;
  if (payload?.$case === 'statusUpdate') return payload.value.status?.state;
  if (payload?.$case === 'task') return payload.value.status?.state;
  return undefined;
}

async function docker(...args: string[]): Promise<string> {
  return (await run('docker', args)).stdout.trim();
}

/** The containers of a compose service (by compose's labels, the same for compose v1 and v2), oldest first. */
async function containers(service: string): Promise<string[]> {
  const filters = ['--filter', `label=com.docker.compose.project=${COMPOSE_PROJECT_NAME}`, '--filter', `label=com.docker.compose.service=${service}`];
  const names = await docker('ps', '--all', ...filters, '--format', '{{.Label "com.docker.compose.container-number"}} {{.Names}}');
  return names
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(' '))
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, name]) => name);
}

async function container(service: string): Promise<string> {
  const [first] = await containers(service);
  if (!first) throw new Error(`no container of service ${service} in ${COMPOSE_PROJECT_NAME}`);
  return first;
}

async function healthy(name: string): Promise<void> {
  await eventually(() => docker('inspect', '--format', '{{.State.Health.Status}}', name), (status) => status === 'healthy', 90_000);
}

/** Reads a stream in the background; `until` resolves once an event passes the test. */
function follow(stream: AsyncIterable<StreamResponse>) {
  const seen: StreamResponse[] = [];
  const ended = (async () => {
    for await (const event of stream) seen.push(event);
  })();
  ended.catch(() => undefined);
  const until = (test: (events: StreamResponse[]) => boolean) => eventually(async () => seen, test, 30_000);
  return { seen, ended, until };
}

const chunks = (events: StreamResponse[]) => events.filter((event) => event.payload?.$case === 'artifactUpdate').length;

describe('docker compose up', () => {
  it('serves cards publicly and refuses calls without a key', async () => {
    expect((await fetch(`${url}/.well-known/agent-card.json`)).status).toBe(200);
    expect((await fetch(`${url}/api/a2a/agents`)).status).toBe(401);
  });

  it('answers a blocking send and a streamed one through the official A2A client', async () => {
    const sent = (await (await a2a('echo')).sendMessage(message('hello compose'))) as Task;
    expect(sent.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(sent)).toBe('hello compose');
    const stream = follow((await a2a('slow')).sendMessageStream(message('0123456789')));
    await stream.ended;
    expect(chunks(stream.seen)).toBe(10);
    expect(stateOf(stream.seen.at(-1))).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('calls agents and the example MCP server as MCP tools', async () => {
    const client = new McpClient({ name: 'deploy-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', url), { requestInit: { headers: { authorization: `Bearer ${DEPLOY_API_KEY}` } } }));
    try {
      const agent = await client.callTool({ name: 'switchboard_agent_echo', arguments: { message: 'hello mcp' } });
      expect(JSON.stringify(agent.content)).toContain('hello mcp');
      // The example server connects in the background after boot.
      const tools = await eventually(async () => (await client.listTools()).tools.map((tool) => tool.name), (names) => names.includes('mcp_everything_echo'), 60_000);
      expect(tools).toContain('mcp_everything_echo');
      const echoed = await client.callTool({ name: 'mcp_everything_echo', arguments: { message: 'through the gateway' } });
      expect(JSON.stringify(echoed.content)).toContain('through the gateway');
    } finally {
      await client.close();
    }
  });

  it('ends a turn whose worker is killed mid-turn: the task is not left working and its stream gets the end', async () => {
    const [first, second] = await containers('worker');
    expect(second).toBeDefined();
    // Only the first worker can take the turn while the second is paused.
    await docker('pause', second);
    const stream = follow((await a2a('slow')).sendMessageStream(message('abcdefghij')));
    try {
      await stream.until((events) => chunks(events) >= 2);
    } finally {
      await docker('unpause', second);
    }
    await docker('kill', first);
    await stream.ended;
    const final = stateOf(stream.seen.at(-1));
    expect([TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_COMPLETED]).toContain(final);
    const taskId = (stream.seen[0].payload!.value as Task).id;
    const task = await (await a2a('slow')).getTask(GetTaskRequest.fromJSON({ id: taskId }));
    expect(task.status?.state).toBe(final);
    await docker('start', first);
    await healthy(first);
  });

  it('keeps a turn going while the API restarts, and a resubscription sees it to its end', async () => {
    const text = 'ABCDEFGHIJKLMNOPQRST';
    const stream = follow((await a2a('long')).sendMessageStream(message(text)));
    await stream.until((events) => chunks(events) >= 1);
    const taskId = (stream.seen[0].payload!.value as Task).id;
    const api = await container('api');
    await docker('restart', '--time', '20', api);
    // The API drains, then ends the stream it can no longer follow with an error naming the task.
    await expect(stream.ended).rejects.toThrow(new RegExp(`Stopped following task ${taskId}.*shutting down`));
    await healthy(api);
    const resubscribed = follow((await a2a('long')).resubscribeTask({ id: taskId, tenant: '' }));
    await resubscribed.ended;
    // The task as it stood, then the chunks still to come, then the end.
    expect(resubscribed.seen[0].payload?.$case).toBe('task');
    expect(chunks(resubscribed.seen)).toBeGreaterThan(0);
    expect(stateOf(resubscribed.seen.at(-1))).toBe(TaskState.TASK_STATE_COMPLETED);
    const task = await (await a2a('long')).getTask(GetTaskRequest.fromJSON({ id: taskId }));
    expect(artifactText(task)).toBe(text);
  });

  it('cancels a running task', async () => {
    const client = await a2a('slow');
    const stream = follow(client.sendMessageStream(message('uvwxyzabcd')));
    await stream.until((events) => events.length >= 1);
    const taskId = (stream.seen[0].payload!.value as Task).id;
    expect((await client.cancelTask(CancelTaskRequest.fromJSON({ id: taskId }))).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await stream.ended;
  });
});
