import { TaskState } from '@a2a-js/sdk';
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import { randomUUID } from 'node:crypto';
import { postJson } from '../faults/support/store-outage-clients';
import { bearer } from '../support/test-app';
import { type DurableTestApp, startDurableTestApp } from '../support/durable-test-app';
import { asTask, authenticatedFetch, type Binding, collect, sdkClient, userMessage } from '../support/sdk-client';
import type { Json } from '../support/json';

const V1 = { 'a2a-version': '1.0' };
const BINDINGS: Binding[] = ['JSONRPC', 'HTTP+JSON'];

/** The field-name forms, message ids, cancels, push configs, method errors and seed file parts the wire accepts. */
describe('A2A wire forms', () => {
  let service: DurableTestApp;
  let url: string;

  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const answer = await postJson(url + path, body, headers);
    return { status: answer.status, body: answer.body as Json };
  };
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(url + path, { headers: { ...bearer(), ...headers } });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const rpc = async (method: string, params?: unknown, headers: Record<string, string> = {}, path = '/a2a') =>
    (await post(path, { jsonrpc: '2.0', id: 1, method, ...(params !== undefined && { params }) }, headers)).body;

  /** The SDK's v0.3 client for an agent, as a v0.3-only client would make it. */
  const legacyClient = async (agent: string, binding: Binding) => {
    const fetchImpl = authenticatedFetch();
    const legacyCompat = { enabled: true };
    const resolver = new DefaultAgentCardResolver({ fetchImpl, legacyCompat });
    const { supportedInterfaces: _, ...legacyOnly } = (await get(`/a2a/agents/${agent}/agent-card.json`)).body;
    const factory = new ClientFactory({
      transports: [
        new JsonRpcTransportFactory({ fetchImpl, legacyCompat }),
        new RestTransportFactory({ fetchImpl, legacyCompat }),
      ],
      preferredTransports: [binding],
      cardResolver: resolver,
    });
    return factory.createFromAgentCard(resolver.normalizeAgentCard(legacyOnly));
  };

  beforeAll(async () => {
    service = await startDurableTestApp();
    url = service.url;
  });

  afterAll(() => service?.close());

  describe('protobuf field names (v1.0)', () => {
    const protoSend = (contextId: string) => ({
      message: {
        message_id: randomUUID(),
        context_id: contextId,
        role: 'ROLE_USER',
        reference_task_ids: [],
        parts: [{ text: 'proto names', media_type: 'text/plain', metadata: { keep_me: 1 } }],
      },
      configuration: { accepted_output_modes: ['text/plain'], history_length: 1, return_immediately: false },
    });

    it('takes proto field names over JSON-RPC, in the send, task and push config methods', async () => {
      const contextId = `ctx-${randomUUID()}`;
      const sent = await rpc('SendMessage', protoSend(contextId), V1);
      expect(sent.result.task).toMatchObject({ contextId, status: { state: 'TASK_STATE_COMPLETED' } });
      expect(sent.result.task.history).toHaveLength(1);
      const taskId = sent.result.task.id as string;

      const got = await rpc('GetTask', { id: taskId, history_length: 0 }, V1);
      expect(got.result.history ?? []).toHaveLength(0);
      const listed = await rpc('ListTasks', { context_id: contextId, page_size: 5 }, V1);
      expect(listed.result.tasks.map((task: Json) => task.id)).toEqual([taskId]);
      const created = await rpc(
        'CreateTaskPushNotificationConfig',
        { task_id: taskId, id: 'proto', url: 'https://hooks.example.com/a' },
        V1,
      );
      expect(created.result).toMatchObject({ taskId, id: 'proto' });
      const fetched = await rpc('GetTaskPushNotificationConfig', { task_id: taskId, id: 'proto' }, V1);
      expect(fetched.result.url).toBe('https://hooks.example.com/a');
    });

    it('takes proto field names over HTTP+JSON, in bodies and query parameters', async () => {
      const contextId = `ctx-${randomUUID()}`;
      const sent = await post('/a2a/rest/agents/echo/message:send', protoSend(contextId), V1);
      expect(sent.status).toBe(200);
      expect(sent.body.task).toMatchObject({ contextId, status: { state: 'TASK_STATE_COMPLETED' } });
      const taskId = sent.body.task.id as string;
      const got = await get(`/a2a/rest/agents/echo/tasks/${taskId}?history_length=0`, V1);
      expect(got.body.history ?? []).toHaveLength(0);
      const listed = await get(`/a2a/rest/agents/echo/tasks?context_id=${contextId}&page_size=5`, V1);
      expect(listed.body.tasks.map((task: Json) => task.id)).toEqual([taskId]);
    });

    it('still refuses a wrong-typed field given by its proto name, naming it', async () => {
      const params = protoSend('c');
      params.message.message_id = 7 as never;
      const { error } = await rpc('SendMessage', params, V1);
      expect(error).toMatchObject({ code: -32602, message: expect.stringMatching(/^params\.message\.messageId: /) });
    });
  });

  describe('message ids (v0.3)', () => {
    it('refuses a kind-tagged v0.3 send without a messageId with -32602', async () => {
      const { error } = await rpc('message/send', {
        message: { role: 'user', parts: [{ kind: 'text', text: 'no id' }] },
      });
      expect(error).toMatchObject({ code: -32602, message: expect.stringMatching(/messageId/) });
    });
  });

  describe('cancel of an ended task', () => {
    const canceledTask = async (): Promise<string> => {
      const client = await sdkClient(url, 'slow', 'JSONRPC');
      const request = userMessage('cancel me');
      request.configuration = { acceptedOutputModes: [], returnImmediately: true } as never;
      const task = asTask(await client.sendMessage(request));
      expect((await client.cancelTask({ id: task.id, tenant: '' } as never)).status?.state).toBe(
        TaskState.TASK_STATE_CANCELED,
      );
      return task.id;
    };

    it.each(BINDINGS)('answers not-cancelable to a v1.0 cancel of a canceled task over %s', async (binding) => {
      const id = await canceledTask();
      const client = await sdkClient(url, 'slow', binding);
      await expect(client.cancelTask({ id, tenant: '' } as never)).rejects.toThrow(/canceled and cannot be canceled/);
    });

    it.each(BINDINGS)('answers not-cancelable to a v0.3 cancel of a canceled task over %s', async (binding) => {
      const id = await canceledTask();
      const client = await legacyClient('slow', binding);
      await expect(client.cancelTask({ id, tenant: '' } as never)).rejects.toThrow(/canceled and cannot be canceled/);
    });

    it('answers -32002 on v0.3 JSON-RPC and 409 on the seed route (the default agent\u2019s)', async () => {
      const id = await canceledTask();
      const legacy = await rpc('tasks/cancel', { id }, {}, '/a2a/agents/slow');
      expect(legacy.error).toMatchObject({ code: -32002 });
      const completed = await post('/a2a/tasks/send', {
        message: { role: 'user', parts: [{ type: 'text', text: 'done' }] },
      });
      expect(completed.body.status.state).toBe('completed');
      const seed = await post(`/a2a/tasks/${completed.body.id}/cancel`, {});
      expect(seed).toEqual({ status: 409, body: expect.objectContaining({ error: 'task_not_cancelable' }) });
    });
  });

  describe('push configs without an id', () => {
    it('gives a v0.3 set without an id the task id, and a get without an id finds it', async () => {
      const task = (
        await rpc('message/send', {
          message: { role: 'user', messageId: randomUUID(), parts: [{ kind: 'text', text: 'hook' }] },
        })
      ).result;
      const set = await rpc('tasks/pushNotificationConfig/set', {
        taskId: task.id,
        pushNotificationConfig: { url: 'https://hooks.example.com/b' },
      });
      expect(set.result.pushNotificationConfig).toMatchObject({ id: task.id, url: 'https://hooks.example.com/b' });
      const got = await rpc('tasks/pushNotificationConfig/get', { id: task.id });
      expect(got.result.pushNotificationConfig).toMatchObject({ id: task.id, url: 'https://hooks.example.com/b' });
    });

    it('gives a config sent inline in a v0.3 send without an id the task id', async () => {
      const message = { role: 'user', messageId: randomUUID(), parts: [{ kind: 'text', text: 'hook inline' }] };
      const task = (
        await rpc('message/send', {
          message,
          configuration: { pushNotificationConfig: { url: 'https://hooks.example.com/d' } },
        })
      ).result;
      const got = await rpc('tasks/pushNotificationConfig/get', { id: task.id });
      expect(got.result.pushNotificationConfig).toMatchObject({ id: task.id, url: 'https://hooks.example.com/d' });
    });

    it.each(BINDINGS)('gives a v1.0 config created without an id the task id over %s', async (binding) => {
      const client = await sdkClient(url, 'echo', binding);
      const task = asTask(await client.sendMessage(userMessage('hook')));
      const created = await client.createTaskPushNotificationConfig({
        tenant: '',
        id: '',
        taskId: task.id,
        url: 'https://hooks.example.com/c',
        token: '',
        authentication: undefined,
      });
      expect(created.id).toBe(task.id);
    });
  });

  describe('method and state errors', () => {
    it('answers -32601 to an unknown v1.0 method with no params, and to one with params', async () => {
      expect((await rpc('NoSuchMethod', undefined, V1)).error).toMatchObject({ code: -32601 });
      expect((await rpc('NoSuchMethod', {}, V1)).error).toMatchObject({ code: -32601 });
      expect((await rpc('no/such/method')).error).toMatchObject({ code: -32601 });
    });

    it.each(BINDINGS)(
      'names the state of an ended task in a v1.0 refusal over %s, never its number',
      async (binding) => {
        const client = await sdkClient(url, 'echo', binding);
        const task = asTask(await client.sendMessage(userMessage('first')));
        const refusal = async (call: Promise<unknown>) =>
          (
            (await call.then(
              () => undefined,
              (error: Error) => error,
            )) as Error
          ).message;
        const send = await refusal(client.sendMessage(userMessage('again', { taskId: task.id })));
        const resubscribe = await refusal(collect(client.resubscribeTask({ id: task.id, tenant: '' })));
        for (const message of [send, resubscribe]) {
          expect(message).toMatch(/terminal state \(completed\)/);
          expect(message).not.toMatch(/\(\d+\)/);
        }
      },
    );

    it('names the state in a v0.3 refusal', async () => {
      const sent = await rpc('message/send', {
        message: { role: 'user', messageId: randomUUID(), parts: [{ kind: 'text', text: 'x' }] },
      });
      const again = await rpc('message/send', {
        message: {
          role: 'user',
          messageId: randomUUID(),
          taskId: sent.result.id,
          parts: [{ kind: 'text', text: 'y' }],
        },
      });
      expect(again.error.message).toMatch(/terminal state \(completed\)/);
    });
  });

  describe('the seeds\u2019 file parts', () => {
    const seedFileParts = [
      { type: 'file', name: 'report.csv', uri: 'https://example.com/report.csv' },
      { type: 'file', name: 'image.png', mime_type: 'image/png', bytes_data: 'aGVsbG8=' },
      { type: 'file', file: { uri: 'https://example.com/nested.txt', name: 'nested.txt', mime_type: 'text/plain' } },
      { type: 'file', file: { bytes_data: 'aGk=', name: 'nested.bin' } },
    ];

    it('takes PocketPaw\u2019s file parts and stores them as v1.0 file parts', async () => {
      const sent = await rpc('message/send', {
        message: { role: 'user', parts: [{ type: 'text', text: 'files:' }, ...seedFileParts] },
      });
      expect(sent.result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
      const task = await rpc('GetTask', { id: sent.result.id }, V1);
      expect(task.result.history[0].parts.slice(1)).toEqual([
        { url: 'https://example.com/report.csv', filename: 'report.csv' },
        { raw: 'aGVsbG8=', filename: 'image.png', mediaType: 'image/png' },
        { url: 'https://example.com/nested.txt', filename: 'nested.txt', mediaType: 'text/plain' },
        { raw: 'aGk=', filename: 'nested.bin' },
      ]);
    });

    it('answers them as v0.3 file parts on the seed route', async () => {
      const sent = await post('/a2a/tasks/send', { message: { role: 'user', parts: seedFileParts.slice(0, 2) } });
      expect(sent.status).toBe(200);
      expect(sent.body.history[0].parts).toEqual([
        { kind: 'file', file: { uri: 'https://example.com/report.csv', name: 'report.csv' } },
        { kind: 'file', file: { bytes: 'aGVsbG8=', name: 'image.png', mimeType: 'image/png' } },
      ]);
    });

    it('refuses a seed file part with neither uri nor bytes, naming the field', async () => {
      const { error } = await rpc('message/send', {
        message: { role: 'user', parts: [{ type: 'file', name: 'empty' }] },
      });
      expect(error).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/^params\.message\.parts\[0\]\.file/),
      });
    });
  });
});
