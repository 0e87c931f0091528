/** The peer agent that the A2A client's tests talk to, checked with the SDK's own client in each protocol mode. */
import {
  CancelTaskRequest,
  type Message,
  type Part,
  SendMessageRequest,
  type StreamResponse,
  type Task,
  TaskState,
} from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import { randomUUID } from 'node:crypto';
import { killAllPeers, type PeerAgent, startPeers } from './support/peer-process';

const legacyCompat = { enabled: true };

/** The SDK's client for `peer`, from its card; with legacyCompat it reads v0.3 cards and speaks v0.3 to them. */
function sdkClient(peer: PeerAgent, fetchImpl?: typeof fetch): Promise<Client> {
  const factory = new ClientFactory({
    transports: [
      new JsonRpcTransportFactory({ fetchImpl, legacyCompat }),
      new RestTransportFactory({ fetchImpl, legacyCompat }),
    ],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl, legacyCompat }),
  });
  return factory.createFromUrl(peer.url);
}

function userMessage(text: string, task?: Task): SendMessageRequest {
  return SendMessageRequest.fromJSON({
    message: {
      messageId: randomUUID(),
      role: 'ROLE_USER',
      parts: [{ text }],
      taskId: task?.id,
      contextId: task?.contextId,
    },
  });
}

function asTask(result: Message | Task): Task {
  if (!('status' in result)) throw new Error(`expected a task, got ${JSON.stringify(result)}`);
  return result;
}

function text(parts: Part[] | undefined): string {
  return (parts ?? []).map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
}

function stateOf(event: StreamResponse | undefined): TaskState | undefined {
  return event?.payload?.$case === 'statusUpdate' ? event.payload.value.status?.state : undefined;
}

async function drain(stream: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const TOKEN = 'peer-token-0123456789';
let peers: Record<'v1' | 'v1-rest' | 'v03' | 'bearer', PeerAgent>;

// One process for all four: each process start is a ts-node compile of about a second.
beforeAll(async () => {
  const [v1, v1Rest, v03, bearer] = await startPeers([
    { mode: 'v1' },
    { mode: 'v1-rest' },
    { mode: 'v03' },
    { mode: 'v1', auth: { bearer: TOKEN } },
  ]);
  peers = { v1, 'v1-rest': v1Rest, v03, bearer };
});

afterAll(killAllPeers);

describe.each([
  { mode: 'v1', binding: 'JSONRPC', version: '1.0' },
  { mode: 'v1-rest', binding: 'HTTP+JSON', version: '1.0' },
  { mode: 'v03', binding: 'JSONRPC', version: '0.3' },
] as const)('a $mode peer', ({ mode, binding, version }) => {
  let client: Client;

  beforeAll(async () => {
    client = await sdkClient(peers[mode]);
  });

  it(`is reached over ${binding} at protocol version ${version}`, () => {
    expect([client.transport.protocolName, client.protocolVersion]).toEqual([binding, version]);
  });

  it('echoes a message as a completed task with the text as artifact and status message', async () => {
    const task = asTask(await client.sendMessage(userMessage('echo hello peer')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(text(task.status?.message?.parts)).toBe('hello peer');
    expect(task.artifacts.map((artifact) => text(artifact.parts))).toEqual(['hello peer']);
  });

  it('streams a slow answer as three appended artifact chunks, then completed', async () => {
    const events = await drain(client.sendMessageStream(userMessage('slow 50 abcdefghi')));
    const chunks = events.flatMap((event) => (event.payload?.$case === 'artifactUpdate' ? [event.payload.value] : []));
    expect(chunks.map((chunk) => [text(chunk.artifact?.parts), chunk.append, chunk.lastChunk])).toEqual([
      ['abc', false, false],
      ['def', true, false],
      ['ghi', true, true],
    ]);
    expect(stateOf(events.at(-1))).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('asks which city, then completes on the follow-up to the same task', async () => {
    const asked = asTask(await client.sendMessage(userMessage('ask')));
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(text(asked.status?.message?.parts)).toBe('which city?');
    const answered = asTask(await client.sendMessage(userMessage('Lisbon', asked)));
    expect(answered.id).toBe(asked.id);
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answered.artifacts.map((artifact) => text(artifact.parts))).toEqual(['weather in Lisbon: sunny']);
  });

  it('cancels a hanging task, which ends its stream with canceled', async () => {
    const stream = client.sendMessageStream(userMessage('hang'));
    const first = (await stream.next()).value;
    if (first?.payload?.$case !== 'task') throw new Error(`expected the task first, got ${JSON.stringify(first)}`);
    const canceled = await client.cancelTask(CancelTaskRequest.fromJSON({ id: first.payload.value.id }));
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(stateOf((await drain(stream)).at(-1))).toBe(TaskState.TASK_STATE_CANCELED);
  });
});

describe('a v03 peer', () => {
  it('serves a v0.3-shaped card: url, preferredTransport, protocolVersion, no supportedInterfaces', async () => {
    const { url } = peers.v03;
    const card = (await (await fetch(`${url}/.well-known/agent-card.json`)).json()) as Record<string, unknown>;
    expect(card).toMatchObject({ url: `${url}/a2a/jsonrpc`, preferredTransport: 'JSONRPC', protocolVersion: '0.3.0' });
    expect(card).not.toHaveProperty('supportedInterfaces');
  });
});

describe('a peer that wants a bearer token', () => {
  it('refuses a client without the token with 401, though its card is public', async () => {
    const client = await sdkClient(peers.bearer);
    expect(Object.keys((await client.getAgentCard()).securitySchemes)).toEqual(['bearer']);
    await expect(client.sendMessage(userMessage('echo hi'))).rejects.toThrow(/401/);
  });

  it('answers a client whose fetch adds the token, and records what each request carried', async () => {
    const withToken: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${TOKEN}`);
      return fetch(input, { ...init, headers });
    };
    const client = await sdkClient(peers.bearer, withToken);
    expect(asTask(await client.sendMessage(userMessage('echo hi'))).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const rpc = (await peers.bearer.requests()).filter((request) => request.path === '/a2a/jsonrpc');
    expect(rpc.map((request) => request.authorization)).toEqual([undefined, `Bearer ${TOKEN}`]);
    expect(rpc.every((request) => typeof request.userAgent === 'string')).toBe(true);
  });
});
