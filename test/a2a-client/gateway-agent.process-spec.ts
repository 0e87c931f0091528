/** `a2a` agents: Switchboard as a gateway to real external agents, called with the SDK's own client. */
import { CancelTaskRequest, GetTaskRequest, type Part, type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { REMOTE_TASK_METADATA_KEY, type RemoteTaskLink } from '../../src/agents/executors/a2a/remote-task-link';
import { asTask, collect, sdkClient, userMessage } from '../support/sdk-client';
import { writeConfigFile } from '../support/config-file';
import { startTestApp, TEST_API_KEY, testConfig } from '../support/test-app';
import { killAllPeers, type PeerAgent, startPeers } from './support/peer-process';

const TOKEN = 'peer-token-0123456789';

let app: NestFastifyApplication;
let url: string;
let peers: Record<'v1' | 'rest' | 'v03' | 'bearer' | 'broken' | 'garbage' | 'hanging' | 'grpc', PeerAgent>;

function text(parts: Part[] | undefined): string {
  return (parts ?? []).map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
}

function linkOf(task: Task): RemoteTaskLink {
  return task.metadata?.[REMOTE_TASK_METADATA_KEY] as RemoteTaskLink;
}

function gateway(agent: string): Promise<Client> {
  return sdkClient(url, agent, 'JSONRPC');
}

/** The SDK's client straight to a peer, to see the remote side of a delegated task. */
function peerClient(peer: PeerAgent, fetchImpl?: typeof fetch): Promise<Client> {
  const legacyCompat = { enabled: true };
  return new ClientFactory({
    transports: [
      new JsonRpcTransportFactory({ fetchImpl, legacyCompat }),
      new RestTransportFactory({ fetchImpl, legacyCompat }),
    ],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl, legacyCompat }),
  }).createFromUrl(peer.url);
}

async function remoteTask(peer: PeerAgent, id: string): Promise<Task> {
  return (await peerClient(peer)).getTask(GetTaskRequest.fromJSON({ id }));
}

beforeAll(async () => {
  const [v1, rest, v03, bearerPeer, broken, garbage, hanging, grpcPeer] = await startPeers([
    { mode: 'v1' },
    { mode: 'v1-rest', streaming: false },
    { mode: 'v03' },
    { mode: 'v1', auth: { bearer: TOKEN } },
    { mode: 'v1', rpc: '500' },
    { mode: 'v1', rpc: 'garbage' },
    { mode: 'v1', rpc: 'hang' },
    { mode: 'v1-grpc', auth: { bearer: TOKEN } },
  ]);
  peers = { v1, rest, v03, bearer: bearerPeer, broken, garbage, hanging, grpc: grpcPeer };
  const external = (name: string, peer: PeerAgent, extra = '') =>
    `[[a2a.external_agents]]\nname = "${name}"\nurl = "${peer.url}"\n${extra}\n`;
  const gatewayTo = (name: string, target: string) =>
    `[[agents]]\nname = "${name}"\n[agents.executor]\ntype = "a2a"\nagent = "${target}"\n`;
  const config = writeConfigFile(
    [
      '[outbound]\nallow_hosts = ["127.0.0.1"]',
      '[a2a.client]\npoll_interval_ms = 50\nsse_retry_base_ms = 50\nsse_retry_max_ms = 200',
      external('peer-v1', v1),
      external('peer-rest', rest),
      external('peer-v03', v03),
      external('peer-bearer', bearerPeer, `auth = { type = "bearer", token = "${TOKEN}" }`),
      external('peer-broken', broken),
      external('peer-garbage', garbage),
      external('peer-hanging', hanging, 'timeout_secs = 1'),
      external('peer-grpc', grpcPeer, `auth = { type = "bearer", token = "${TOKEN}" }`),
      external('peer-deadline', v1, 'task_timeout_secs = 1'),
      gatewayTo('gw-v1', 'peer-v1'),
      gatewayTo('gw-rest', 'peer-rest'),
      gatewayTo('gw-v03', 'peer-v03'),
      gatewayTo('gw-bearer', 'peer-bearer'),
      gatewayTo('gw-broken', 'peer-broken'),
      gatewayTo('gw-garbage', 'peer-garbage'),
      gatewayTo('gw-hanging', 'peer-hanging'),
      gatewayTo('gw-grpc', 'peer-grpc'),
      gatewayTo('gw-deadline', 'peer-deadline'),
    ].join('\n'),
  );
  ({ app, url } = await startTestApp(testConfig({ SWITCHBOARD_CONFIG: config })));
}, 60_000);

afterAll(async () => {
  await app?.close();
  await killAllPeers();
});

describe.each([
  { agent: 'gw-v1', peer: 'v1', how: 'a v1.0 JSON-RPC agent, streamed' },
  { agent: 'gw-rest', peer: 'rest', how: 'a v1.0 HTTP+JSON agent that cannot stream, polled' },
  { agent: 'gw-v03', peer: 'v03', how: 'a v0.3 agent' },
  { agent: 'gw-bearer', peer: 'bearer', how: 'an agent that wants a bearer token' },
  { agent: 'gw-grpc', peer: 'grpc', how: 'an agent whose card prefers gRPC, with a bearer token in the metadata' },
] as const)('a gateway to $how', ({ agent, peer }) => {
  it('answers a blocking send with the remote answer, linked to the remote task', async () => {
    const task = asTask(await (await gateway(agent)).sendMessage(userMessage('echo hello through the gateway')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts.map((artifact) => text(artifact.parts))).toEqual(['hello through the gateway']);
    const link = linkOf(task);
    expect(link).toMatchObject({ agent: agent.replace('gw-', 'peer-'), task_id: expect.any(String) });
    expect(link.task_id).not.toBe(task.id);
    // The peers behind credentials want them over HTTP too.
    if (peer !== 'bearer' && peer !== 'grpc')
      expect((await remoteTask(peers[peer], link.task_id)).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('streams the remote progress as it comes, ending completed with the whole artifact', async () => {
    const events = await collect((await gateway(agent)).sendMessageStream(userMessage('slow 100 abcdefghi')));
    const last = events.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const taskId = events[0].payload?.$case === 'task' ? events[0].payload.value.id : '';
    const task = await (await gateway(agent)).getTask(GetTaskRequest.fromJSON({ id: taskId }));
    expect(task.artifacts.map((artifact) => text(artifact.parts))).toEqual(['abcdefghi']);
  });

  it('carries a multi-turn conversation: input-required, then the answer on the same task', async () => {
    const client = await gateway(agent);
    const asked = asTask(await client.sendMessage(userMessage('ask')));
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(text(asked.status?.message?.parts)).toBe('which city?');
    const answered = asTask(
      await client.sendMessage(userMessage('Lisbon', { taskId: asked.id, contextId: asked.contextId })),
    );
    expect(answered.id).toBe(asked.id);
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answered.artifacts.map((artifact) => text(artifact.parts))).toContain('weather in Lisbon: sunny');
    expect(linkOf(answered).task_id).toBe(linkOf(asked).task_id);
  });
});

describe('a gateway agent', () => {
  it('talks gRPC to an agent whose card lists gRPC first, at the address its card gives', async () => {
    const response = await fetch(`${url}/api/a2a/agents`, { headers: { authorization: `Bearer ${TEST_API_KEY}` } });
    const { agents } = (await response.json()) as {
      agents: { name: string; status: { interface?: { url: string; binding: string } } }[];
    };
    expect(agents.find(({ name }) => name === 'peer-grpc')?.status.interface).toMatchObject({
      binding: 'GRPC',
      url: expect.stringMatching(/^127\.0\.0\.1:\d+$/),
    });
  });

  it('relays a remote failure as the task failing, with the remote reason', async () => {
    const task = asTask(await (await gateway('gw-v1')).sendMessage(userMessage('fail')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(text(task.status?.message?.parts)).toBe('peer failure');
  });

  it('passes a cancel on to the remote task', async () => {
    const client = await gateway('gw-v1');
    const stream = client.sendMessageStream(userMessage('hang'));
    let first: StreamResponse | undefined;
    for await (const event of stream) {
      if (event.payload?.$case === 'task' && linkOf(event.payload.value)) {
        first = event;
        break;
      }
    }
    if (first?.payload?.$case !== 'task') throw new Error('no task');
    const canceled = await client.cancelTask(CancelTaskRequest.fromJSON({ id: first.payload.value.id }));
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect((await remoteTask(peers.v1, linkOf(first.payload.value).task_id)).status?.state).toBe(
      TaskState.TASK_STATE_CANCELED,
    );
  });

  it('fails a task the remote agent does not end within task_timeout_secs, naming the agent, and cancels it there', async () => {
    const task = asTask(await (await gateway('gw-deadline')).sendMessage(userMessage('hang')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(text(task.status?.message?.parts)).toMatch(
      /external agent "peer-deadline": the task did not end within 1 s/,
    );
    expect((await remoteTask(peers.v1, linkOf(task).task_id)).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it.each([
    ['answers 500', 'gw-broken', /external agent "peer-broken"/],
    ['answers garbage', 'gw-garbage', /external agent "peer-garbage"/],
    ['never answers', 'gw-hanging', /external agent "peer-hanging".*timed out/],
  ])('fails the task, naming the agent, when the remote agent %s', async (_how, agent, reason) => {
    const task = asTask(await (await gateway(agent)).sendMessage(userMessage('echo hi')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(text(task.status?.message?.parts)).toMatch(reason);
  });
});
