/**
 * A remote task stream that goes quiet for longer than `sse_idle_timeout_ms` is dropped and the
 * task followed again (GetTask, then a resubscription), so a gateway turn survives dead streams.
 */
import { type Part, TaskState } from '@a2a-js/sdk';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { asTask, sdkClient, userMessage } from '../support/sdk-client';
import { writeConfigFile } from '../support/config-file';
import { startTestApp, testConfig } from '../support/test-app';
import { killAllPeers, type PeerAgent, startPeer } from './support/peer-process';

let app: NestFastifyApplication;
let url: string;
let peer: PeerAgent;

function text(parts: Part[] | undefined): string {
  return (parts ?? []).map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
}

beforeAll(async () => {
  // HTTP+JSON, so the peer's request log shows a resubscription by its path (`/tasks/{id}:subscribe`).
  peer = await startPeer({ mode: 'v1-rest', streaming: true });
  const config = writeConfigFile(`
[outbound]
allow_hosts = ["127.0.0.1"]
[a2a.client]
sse_idle_timeout_ms = 300
sse_retry_base_ms = 50
sse_retry_max_ms = 100
[[a2a.external_agents]]
name = "peer"
url = "${peer.url}"
[[agents]]
name = "gateway"
[agents.executor]
type = "a2a"
agent = "peer"
`);
  ({ app, url } = await startTestApp(testConfig({ SWITCHBOARD_CONFIG: config })));
});

afterAll(async () => {
  await app?.close();
  await killAllPeers();
});

it('resubscribes to a remote task whose stream stays silent past the idle timeout, and completes it', async () => {
  const task = asTask(
    await (await sdkClient(url, 'gateway', 'JSONRPC')).sendMessage(userMessage('slow 1000 abcdefghi')),
  );
  expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  expect(task.artifacts.map((artifact) => text(artifact.parts)).join('')).toBe('abcdefghi');
  const paths = (await peer.requests()).map((request) => request.path);
  expect(paths.some((path) => /\/tasks\/[^/]+:subscribe$/.test(path))).toBe(true);
});
