/**
 * A blocking send has a deadline (`a2a.blocking_timeout_secs`): past it the call answers with the
 * task as it stands, not yet ended, and the turn goes on. In every dialect; and with no worker to
 * take the turn, the answer is the task recorded as submitted.
 */
import { SendMessageRequest, Task, TaskState } from '@a2a-js/sdk';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { writeConfigFile } from '../support/config-file';
import { bearer, startTestApp, testConfig } from '../support/test-app';
import { DurableTestApp, startDurableTestApp } from './support/durable-test-app';
import { asTask, Binding, sdkClient, userMessage } from './support/sdk-client';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Starts, then works for ten minutes: a turn that does not end within any test. */
const ENDLESS_AGENT_TOML = `
[a2a]
blocking_timeout_secs = 0.5

[[agents]]
name = "endless"
description = "Never finishes"
[agents.executor]
type = "script"
steps = [{ status = "working" }, { artifact = { text = "partial" } }, { delay_ms = 600000 }, { status = "completed" }]
`;

describe('blocking sends past a2a.blocking_timeout_secs', () => {
  let app: NestFastifyApplication;
  let url: string;

  const postJson = async (path: string, body: unknown, headers: Record<string, string> = {}): Promise<Json> => {
    const response = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(), ...headers }, body: JSON.stringify(body) });
    return (await response.json()) as Json;
  };
  const cancel = (taskId: string) => postJson('/a2a', { jsonrpc: '2.0', id: 2, method: 'CancelTask', params: { id: taskId } }, { 'a2a-version': '1.0' });

  beforeAll(async () => {
    ({ app, url } = await startTestApp(testConfig({ SWITCHBOARD_CONFIG: writeConfigFile(ENDLESS_AGENT_TOML) })));
  });

  afterAll(async () => {
    await app?.close();
  });

  it.each<Binding>(['JSONRPC', 'HTTP+JSON'])('v1.0 SendMessage over %s answers the working task, which goes on', async (binding) => {
    const client = await sdkClient(url, 'endless', binding);
    const task = asTask(await client.sendMessage(userMessage('take your time')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect(task.artifacts[0]?.parts[0]?.content?.value).toBe('partial');
    expect((await client.getTask({ id: task.id, tenant: '' })).status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect((await client.cancelTask({ id: task.id, tenant: '' } as never)).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('v0.3 message/send answers the working task', async () => {
    const message = { kind: 'message', messageId: 'm-v03-endless', role: 'user', parts: [{ kind: 'text', text: 'take your time' }] };
    const { result } = await postJson('/a2a', { jsonrpc: '2.0', id: 1, method: 'message/send', params: { message } });
    expect(result).toMatchObject({ kind: 'task', status: { state: 'working' } });
    await cancel(result.id);
  });

  it('the seeds\u2019 POST /a2a/tasks/send answers the working task', async () => {
    const task = await postJson('/a2a/tasks/send', { message: { role: 'user', parts: [{ type: 'text', text: 'take your time' }] } });
    expect(task).toMatchObject({ status: { state: 'working' } });
    await cancel(task.id);
  });
});

describe('a blocking send past its deadline with no worker to take the turn', () => {
  let service: DurableTestApp;

  beforeAll(async () => {
    service = await startDurableTestApp({ SWITCHBOARD_CONFIG: writeConfigFile(ENDLESS_AGENT_TOML), SWITCHBOARD_WORKER_IN_API: 'false' });
  });

  afterAll(async () => {
    await service?.close();
  });

  it('answers the task recorded as submitted, which a worker will take', async () => {
    const client = await sdkClient(service.url, 'endless', 'JSONRPC');
    const request: SendMessageRequest = userMessage('is anyone there?');
    const task = asTask(await client.sendMessage(request));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
    const stored: Task = await client.getTask({ id: task.id, tenant: '' });
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
    expect(stored.history.map((message) => message.messageId)).toEqual([request.message!.messageId]);
  });
});
