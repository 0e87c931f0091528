/**
 * A2A over gRPC, through the SDK's own gRPC client (v1.0, and v0.3 compat to the default agent):
 * every method, in embedded and durable mode, with the same keys, agent allowlists and task scopes
 * as the other bindings.
 */
import { CancelTaskRequest, GetTaskRequest, ListTasksRequest, SendMessageRequest, TaskState } from '@a2a-js/sdk';
import { credentials, status } from '@grpc/grpc-js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { writeConfigFile } from '../support/config-file';
import { freePort } from '../support/free-port';
import { bearer, startTestApp, testConfig } from '../support/test-app';
import { startTestAppIn } from '../support/test-app-in-mode';
import { grpcClient } from './support/grpc-client';
import { artifactText, asTask, collect, userMessage } from '../support/sdk-client';
import { TEST_AGENTS_TOML } from '../support/test-agents';
import { WebhookReceiver } from '../support/webhook-receiver';
import type { Json } from '../support/json';

const OTHER_KEY = 'other-key-0123456789abcdef';
const ECHO_ONLY_KEY = 'echo-only-0123456789abcdef';

/** `slow` is the default agent, the one v0.3 (which has no tenant) reaches: long enough turns to cancel and follow. */
const toml = (port: number, grpc = '') => `
[outbound]
allow_hosts = ["127.0.0.1"]
[a2a]
default_agent = "slow"
[a2a.grpc]
port = ${port}
${grpc}
[[auth.api_keys]]
name = "tester"
key = "test-key-0123456789abcdef"
[[auth.api_keys]]
name = "other"
key = "${OTHER_KEY}"
[[auth.api_keys]]
name = "echo-only"
key = "${ECHO_ONLY_KEY}"
agents = ["echo"]
${TEST_AGENTS_TOML}
[[agents]]
name = "support"
extended_skills = [{ id = "refunds", name = "Refunds" }]
[agents.executor]
type = "echo"
`;

describe.each(['embedded', 'durable'] as const)('A2A over gRPC (%s)', (mode) => {
  let url: string;
  let port: number;
  let close: () => Promise<unknown>;
  let webhook: WebhookReceiver<Json>;

  beforeAll(async () => {
    webhook = await WebhookReceiver.start();
    port = await freePort();
    ({ url, close } = await startTestAppIn(mode, {
      SWITCHBOARD_CONFIG: writeConfigFile(toml(port)),
      SWITCHBOARD_API_KEYS: undefined,
    }));
  });

  afterAll(async () => {
    await close?.();
    webhook?.close();
  });

  it("lists the gRPC interface on each agent's card, with its name as the tenant; v0.3 on the default agent's alone", async () => {
    const card = (await (await fetch(`${url}/a2a/agents/echo/agent-card.json`)).json()) as Json;
    const grpc = card.supportedInterfaces.filter((entry: Json) => entry.protocolBinding === 'GRPC');
    expect(grpc).toEqual([
      { url: `127.0.0.1:${port}`, protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: 'echo' },
    ]);
    expect(card.additionalInterfaces.map((entry: Json) => entry.transport)).not.toContain('GRPC');
    const primary = (await (await fetch(`${url}/.well-known/agent-card.json`)).json()) as Json;
    expect(primary.name).toBe('slow');
    expect(
      primary.supportedInterfaces
        .filter((entry: Json) => entry.protocolBinding === 'GRPC')
        .map((entry: Json) => entry.protocolVersion),
    ).toEqual(['1.0', '0.3']);
    expect(primary.additionalInterfaces).toContainEqual({ url: `127.0.0.1:${port}`, transport: 'GRPC' });
  });

  it('answers a blocking send, then the task by get and list', async () => {
    const client = await grpcClient(url, 'echo');
    const task = asTask(await client.sendMessage(userMessage('over grpc')));
    expect({ state: task.status?.state, text: artifactText(task) }).toEqual({
      state: TaskState.TASK_STATE_COMPLETED,
      text: 'over grpc',
    });
    expect((await client.getTask(GetTaskRequest.fromJSON({ id: task.id }))).id).toBe(task.id);
    const listed = await client.listTasks(ListTasksRequest.fromJSON({ contextId: task.contextId }));
    expect(listed.tasks.map(({ id }) => id)).toEqual([task.id]);
  });

  it('streams a turn to its end, and a resubscribe follows one under way', async () => {
    const client = await grpcClient(url, 'slow');
    const events = client.sendMessageStream(userMessage('abcde'))[Symbol.asyncIterator]();
    const first = (await events.next()).value;
    const taskId = first?.payload?.$case === 'task' ? first.payload.value.id : '';
    const followed = await collect(client.resubscribeTask({ id: taskId, tenant: '' }));
    const last = followed.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await collect({ [Symbol.asyncIterator]: () => events });
  });

  it('cancels a running task', async () => {
    const client = await grpcClient(url, 'slow');
    const task = asTask(
      await client.sendMessage({ ...userMessage('long enough'), configuration: { returnImmediately: true } as never }),
    );
    const canceled = await client.cancelTask(CancelTaskRequest.fromJSON({ id: task.id }));
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it("creates, gets, lists and deletes a task's push configs", async () => {
    const client = await grpcClient(url, 'echo');
    const task = asTask(await client.sendMessage(userMessage('with a webhook')));
    const config = { tenant: '', id: 'hook', taskId: task.id, url: webhook.url, token: 't', authentication: undefined };
    expect((await client.createTaskPushNotificationConfig(config)).id).toBe('hook');
    expect((await client.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'hook' })).url).toBe(
      webhook.url,
    );
    expect(
      (await client.listTaskPushNotificationConfig({ tenant: '', taskId: task.id, pageSize: 0, pageToken: '' }))
        .configs,
    ).toHaveLength(1);
    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'hook' });
    expect(
      (await client.listTaskPushNotificationConfig({ tenant: '', taskId: task.id, pageSize: 0, pageToken: '' }))
        .configs,
    ).toHaveLength(0);
  });

  it('answers the extended card to a caller with a key', async () => {
    const card = await (await grpcClient(url, 'support')).getAgentCard();
    expect(card.skills.map((skill) => skill.id)).toContain('refunds');
  });

  it('serves a v0.3 gRPC client at the default agent: send, get, stream, resubscribe, cancel and push configs', async () => {
    const client = await grpcClient(url, 'slow', { legacy: true });
    const task = asTask(await client.sendMessage(userMessage('v0.3')));
    expect({ state: task.status?.state, text: artifactText(task) }).toEqual({
      state: TaskState.TASK_STATE_COMPLETED,
      text: 'v0.3',
    });
    expect((await client.getTask(GetTaskRequest.fromJSON({ id: task.id }))).status?.state).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );

    const events = client.sendMessageStream(userMessage('abcde'))[Symbol.asyncIterator]();
    const first = (await events.next()).value;
    const streamedId = first?.payload?.$case === 'task' ? first.payload.value.id : '';
    const followed = await collect(client.resubscribeTask({ id: streamedId, tenant: '' }));
    const last = followed.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await collect({ [Symbol.asyncIterator]: () => events });

    const running = asTask(
      await client.sendMessage({ ...userMessage('long enough'), configuration: { returnImmediately: true } as never }),
    );
    expect((await client.cancelTask(CancelTaskRequest.fromJSON({ id: running.id }))).status?.state).toBe(
      TaskState.TASK_STATE_CANCELED,
    );

    const config = {
      tenant: '',
      id: 'legacy-hook',
      taskId: task.id,
      url: webhook.url,
      token: 't',
      authentication: undefined,
    };
    expect((await client.createTaskPushNotificationConfig(config)).url).toBe(webhook.url);
    expect((await client.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'legacy-hook' })).url).toBe(
      webhook.url,
    );
    expect(
      (await client.listTaskPushNotificationConfig({ tenant: '', taskId: task.id, pageSize: 0, pageToken: '' }))
        .configs,
    ).toHaveLength(1);
    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'legacy-hook' });
  });

  it('refuses a call without a key (UNAUTHENTICATED), and an agent outside the key\u2019s list (PERMISSION_DENIED)', async () => {
    await expect(
      (await grpcClient(url, 'echo', { key: null })).sendMessage(userMessage('no key')),
    ).rejects.toMatchObject({
      status: status.UNAUTHENTICATED,
      message: expect.stringMatching(/missing bearer token/),
    });
    await expect(
      (await grpcClient(url, 'echo', { key: 'wrong-key-0123456789abcdef' })).sendMessage(userMessage('wrong key')),
    ).rejects.toMatchObject({
      status: status.UNAUTHENTICATED,
      message: expect.stringMatching(/invalid API key/),
    });
    await expect(
      (await grpcClient(url, 'slow', { key: ECHO_ONLY_KEY })).sendMessage(userMessage('not mine')),
    ).rejects.toMatchObject({
      status: status.PERMISSION_DENIED,
      message: expect.stringMatching(/may not reach agent "slow"/),
    });
  });

  it('refuses a message past the limits as the other bindings do (INVALID_ARGUMENT)', async () => {
    const tooMany = SendMessageRequest.fromJSON({
      message: {
        messageId: 'm-limits',
        role: 'ROLE_USER',
        parts: Array.from({ length: 1_001 }, () => ({ text: 'x' })),
      },
    });
    await expect((await grpcClient(url, 'echo')).sendMessage(tooMany)).rejects.toMatchObject({
      status: status.INVALID_ARGUMENT,
      message: expect.stringMatching(/parts/),
    });
  });

  it("keeps one key's tasks from another", async () => {
    const task = asTask(await (await grpcClient(url, 'echo')).sendMessage(userMessage('mine')));
    await expect(
      (await grpcClient(url, 'echo', { key: OTHER_KEY })).getTask(GetTaskRequest.fromJSON({ id: task.id })),
    ).rejects.toMatchObject({ status: status.NOT_FOUND });
  });
});

describe('A2A over gRPC with TLS', () => {
  const fixture = (name: string) => join(__dirname, '..', 'a2a-client', 'fixtures', 'mtls', name);
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    const tls = `tls = { cert_file = "${fixture('server.pem')}", key_file = "${fixture('server.key')}" }`;
    ({ app, url } = await startTestApp(
      testConfig({ SWITCHBOARD_CONFIG: writeConfigFile(toml(await freePort(), tls)), SWITCHBOARD_API_KEYS: undefined }),
    ));
  });

  afterAll(() => app?.close());

  it('answers a client that trusts its certificate, and no plaintext one', async () => {
    const channel = credentials.createSsl(readFileSync(fixture('ca.pem')));
    const task = asTask(await (await grpcClient(url, 'echo', { channel })).sendMessage(userMessage('over tls')));
    expect(artifactText(task)).toBe('over tls');
    await expect((await grpcClient(url, 'echo')).sendMessage(userMessage('in the clear'))).rejects.toMatchObject({
      status: status.UNAVAILABLE,
    });
  });
});

describe('A2A over gRPC: the rate limit', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    const env = {
      SWITCHBOARD_CONFIG: writeConfigFile(toml(await freePort())),
      SWITCHBOARD_API_KEYS: undefined,
      SWITCHBOARD_RATE_LIMIT: '2',
    };
    ({ app, url } = await startTestApp(testConfig(env)));
  });

  afterAll(() => app?.close());

  it('is the HTTP one: the same budget per key, shared with the other bindings (RESOURCE_EXHAUSTED past it)', async () => {
    const client = await grpcClient(url, 'echo');
    await client.sendMessage(userMessage('one'));
    // The second request of the key's budget of two goes over HTTP: one budget for all bindings.
    expect((await fetch(`${url}/a2a/agents/echo/agent-card.json`, { headers: bearer() })).status).toBe(200);
    await expect(client.sendMessage(userMessage('three'))).rejects.toMatchObject({
      status: status.RESOURCE_EXHAUSTED,
      message: expect.stringMatching(/rate limit exceeded; retry in \d+ s/),
    });
  });
});
