/**
 * Durable mode, one API and two workers with short stall settings: a worker killed with SIGKILL
 * while it follows a remote task leaves the delegated task to the other worker, which picks the
 * remote task up again (resubscribes or polls) and follows it to its end: the same remote task,
 * not a second one.
 */
import { GetTaskRequest, type Part, type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { type Client } from '@a2a-js/sdk/client';
import { REMOTE_TASK_METADATA_KEY } from '../../src/agents/executors/a2a/remote-task-link';
import { sdkClient, userMessage } from '../support/sdk-client';
import { type ServiceProcess, ServiceProcesses, within } from '../support/service-processes';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import {
  createTestDatabase,
  deleteRedisKeys,
  type TestDatabase,
  testRedisPrefix,
  testRedisUrl,
} from '../support/test-database';
import { killAllPeers, type PeerAgent, startPeer } from './support/peer-process';

jest.setTimeout(60_000);

function text(parts: Part[] | undefined): string {
  return (parts ?? []).map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
}

describe.each([
  { how: 'streams (resubscribed)', streaming: true },
  { how: 'cannot stream (polled)', streaming: false },
])('a worker killed while it follows a remote task of an agent that $how', ({ streaming }) => {
  let database: TestDatabase;
  let redisPrefix: string;
  let services: ServiceProcesses;
  let api: ServiceProcess;
  let first: ServiceProcess;
  let peer: PeerAgent;

  const client = (): Promise<Client> => sdkClient(api.baseUrl, 'gateway', 'JSONRPC');

  beforeAll(async () => {
    database = await createTestDatabase();
    redisPrefix = testRedisPrefix();
    peer = await startPeer({ mode: streaming ? 'v1' : 'v1-rest', streaming });
    const config = `
[outbound]
allow_hosts = ["127.0.0.1"]
[queue]
lock_duration_ms = 1500
stalled_interval_ms = 1000
[a2a.client]
poll_interval_ms = 100
sse_retry_base_ms = 100
sse_retry_max_ms = 500
[[a2a.external_agents]]
name = "peer"
url = "${peer.url}"
[[agents]]
name = "gateway"
[agents.executor]
type = "a2a"
agent = "peer"
`;
    services = new ServiceProcesses({
      SWITCHBOARD_CONFIG: writeConfigFile(config),
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      SWITCHBOARD_REDIS_PREFIX: redisPrefix,
    });
    [api, first] = await Promise.all([services.api('api'), services.worker('worker-1')]);
  });

  afterAll(async () => {
    await services?.stopAll();
    await killAllPeers();
    if (redisPrefix) await deleteRedisKeys(redisPrefix);
    await database?.drop();
  });

  it('lets another worker follow the remote task to its end', async () => {
    const stream = (await client()).sendMessageStream(userMessage('slow 3000 remote-answer'));
    const seen: StreamResponse[] = [];
    const ended = (async () => {
      for await (const event of stream) seen.push(event);
    })();
    ended.catch(() => undefined);
    const taskId = (await eventually(async () => seen[0], Boolean)).payload!.value as Task;
    // The remote task's id must be durable before the crash: that is what the next worker follows.
    const linked = await eventually(
      async () => (await client()).getTask(GetTaskRequest.fromJSON({ id: taskId.id })),
      (task) => task.metadata?.[REMOTE_TASK_METADATA_KEY] !== undefined,
    );
    await services.worker('worker-2');
    expect(await first.kill()).toBe('SIGKILL');

    const task = await services.explain(() =>
      eventually(
        async () => (await client()).getTask(GetTaskRequest.fromJSON({ id: taskId.id })),
        (current) => current.status?.state === TaskState.TASK_STATE_COMPLETED,
        20_000,
      ),
    );
    expect(task.artifacts.map((artifact) => text(artifact.parts)).join('')).toBe('remote-answer');
    expect(task.metadata?.[REMOTE_TASK_METADATA_KEY]).toEqual(linked.metadata?.[REMOTE_TASK_METADATA_KEY]);
    await services.explain(() => within(ended, 10_000, 'the client stream after the new worker finished the task'));
    const last = seen.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' ? last.value.status?.state : last?.$case).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );
  });
});
