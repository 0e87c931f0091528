import { TaskState } from '@a2a-js/sdk';
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import { postJson as rawPostJson } from '../faults/support/store-outage-clients';
import { writeConfigFile } from '../support/config-file';
import { bearer } from '../support/test-app';
import { type DurableTestApp, startDurableTestApp } from '../support/durable-test-app';
import { asTask, authenticatedFetch, type Binding, collect, kinds, userMessage } from '../support/sdk-client';
import { TEST_AGENTS_TOML } from '../support/test-agents';
import { type RunningTestApp, startTestAppIn } from '../support/test-app-in-mode';
import type { Json } from '../support/json';

/** PocketPaw's documented curl body: `type`-tagged parts, no messageId, no A2A-Version header. */
const POCKETPAW_SEND = {
  jsonrpc: '2.0',
  id: 1,
  method: 'message/send',
  params: { message: { role: 'user', parts: [{ type: 'text', text: 'What is the weather in Tokyo?' }] } },
};

describe('A2A v0.3 clients, the seeds\u2019 request forms and agent cards', () => {
  let service: DurableTestApp;
  let url: string;

  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(), ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
  };
  const postJson = async (path: string, body: unknown, headers?: Record<string, string>) => {
    const response = await post(path, body, headers);
    return { status: response.status, body: JSON.parse(response.text) as Json };
  };
  const get = async (path: string, headers: Record<string, string> = bearer()) => {
    const response = await fetch(url + path, { headers });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const sseData = (text: string): Json[] =>
    text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as Json);

  beforeAll(async () => {
    service = await startDurableTestApp();
    url = service.url;
  });

  afterAll(() => service?.close());

  describe('v0.3 JSON-RPC (no A2A-Version header)', () => {
    it('takes PocketPaw\u2019s message/send body and answers a v0.3 task', async () => {
      const { status, body } = await postJson('/a2a', POCKETPAW_SEND);
      expect(status).toBe(200);
      expect(body.result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
      const texts = (body.result.artifacts[0].parts as Json[]).map((part) => (part.kind === 'text' ? part.text : ''));
      expect(texts.join('')).toBe('What is the weather in Tokyo?');
    });

    it('answers a seed-dialect send in the status message too, where PocketPaw\u2019s clients read it (and only there: not a v0.3 one)', async () => {
      const textOf = (message: Json | undefined) =>
        ((message?.parts ?? []) as Json[]).map((part) => part.text).join('');
      const seed = (await postJson('/a2a', POCKETPAW_SEND)).body.result;
      expect({ role: seed.status.message?.role, text: textOf(seed.status.message) }).toEqual({
        role: 'agent',
        text: 'What is the weather in Tokyo?',
      });
      const v03 = {
        ...POCKETPAW_SEND,
        params: {
          message: { kind: 'message', messageId: 'm-v03', role: 'user', parts: [{ kind: 'text', text: 'plain v0.3' }] },
        },
      };
      expect((await postJson('/a2a', v03)).body.result.status.message).toBeUndefined();
      const rest = await postJson('/a2a/tasks/send', POCKETPAW_SEND.params);
      expect(textOf(rest.body.status.message)).toBe('What is the weather in Tokyo?');
    });

    it('takes OpenFang\u2019s tasks/send with a sessionId as the context', async () => {
      const { body } = await postJson('/a2a', {
        jsonrpc: '2.0',
        id: 'of-1',
        method: 'tasks/send',
        params: {
          message: { role: 'user', parts: [{ type: 'text', text: 'Review this code' }] },
          sessionId: 'session-123',
        },
      });
      expect(body.id).toBe('of-1');
      expect(body.result).toMatchObject({ kind: 'task', contextId: 'session-123', status: { state: 'completed' } });
    });

    it('streams message/stream as v0.3 events, the last one final', async () => {
      const response = await post('/a2a', { ...POCKETPAW_SEND, method: 'message/stream' });
      expect(response.type).toMatch(/^text\/event-stream/);
      const results = sseData(response.text).map((event) => event.result);
      expect(results.map((r) => r.kind)).toEqual([
        'task',
        'status-update',
        'artifact-update',
        'artifact-update',
        'artifact-update',
        'status-update',
      ]);
      expect(results.at(-1)).toMatchObject({ status: { state: 'completed' }, final: true });
    });

    it('answers tasks/get with history_length, and tasks/cancel of a finished task with -32002', async () => {
      const sent = await postJson('/a2a', POCKETPAW_SEND);
      const id = sent.body.result.id as string;
      const polled = await postJson('/a2a', {
        jsonrpc: '2.0',
        id: 2,
        method: 'tasks/get',
        params: { id, history_length: 1 },
      });
      expect(polled.body.result.history).toHaveLength(1);
      const cancel = await postJson('/a2a', { jsonrpc: '2.0', id: 3, method: 'tasks/cancel', params: { id } });
      expect(cancel.body.error.code).toBe(-32002);
    });

    it('answers -32005 when the accepted output modes exclude everything the agent produces', async () => {
      const { body } = await postJson('/a2a', {
        ...POCKETPAW_SEND,
        params: { ...POCKETPAW_SEND.params, configuration: { accepted_output_modes: ['image/png'] } },
      });
      expect(body.error.code).toBe(-32005);
    });

    it('answers a message to a finished task with an error, and the task is unchanged', async () => {
      const sent = await postJson('/a2a', POCKETPAW_SEND);
      const task = sent.body.result as Json;
      const again = await postJson('/a2a', {
        ...POCKETPAW_SEND,
        params: { message: { role: 'user', taskId: task.id, parts: [{ type: 'text', text: 'more' }] } },
      });
      expect(again.body.error.code).toBe(-32004);
      const after = await postJson('/a2a', { jsonrpc: '2.0', id: 4, method: 'tasks/get', params: { id: task.id } });
      expect(after.body.result.history).toHaveLength(task.history.length);
    });
  });

  describe('the seeds\u2019 REST forms', () => {
    it('POST /a2a/tasks/send takes a JSON-RPC envelope or bare params and answers the task', async () => {
      const envelope = await postJson('/a2a/tasks/send', { ...POCKETPAW_SEND, method: 'tasks/send' });
      expect(envelope.status).toBe(200);
      expect(envelope.body).toMatchObject({ kind: 'task', status: { state: 'completed' } });
      const bare = await postJson('/a2a/tasks/send', POCKETPAW_SEND.params);
      expect(bare.body).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    });

    it('POST /a2a/tasks/send/stream answers SSE', async () => {
      const response = await post('/a2a/tasks/send/stream', POCKETPAW_SEND.params);
      expect(response.type).toMatch(/^text\/event-stream/);
      expect(sseData(response.text).at(-1)?.result).toMatchObject({ final: true, status: { state: 'completed' } });
    });

    it('GET /a2a/tasks/{id} honours history_length, and answers 404 for an unknown id', async () => {
      const sent = await postJson('/a2a/tasks/send', POCKETPAW_SEND.params);
      const full = await get(`/a2a/tasks/${sent.body.id}`);
      expect(full.body.history).toHaveLength(1);
      const none = await get(`/a2a/tasks/${sent.body.id}?history_length=0`);
      expect(none.body.history ?? []).toHaveLength(0);
      const missing = await get('/a2a/tasks/no-such-task');
      expect(missing).toEqual({ status: 404, body: expect.objectContaining({ error: 'task_not_found' }) });
    });

    describe('at a default agent whose turns take a while', () => {
      let slowFirst: RunningTestApp;
      const send = (path: string, body: unknown) => rawPostJson(slowFirst.url + path, body);

      beforeAll(async () => {
        slowFirst = await startTestAppIn('durable', {
          SWITCHBOARD_CONFIG: writeConfigFile(`[a2a]\ndefault_agent = "slow"\n${TEST_AGENTS_TOML}`),
        });
      });

      afterAll(() => slowFirst?.close());

      it("POST /a2a/tasks/{id}/cancel cancels a running task, and answers 404 for an unknown id and another agent's task", async () => {
        const sent = await send('/a2a/tasks/send', { ...POCKETPAW_SEND.params, configuration: { blocking: false } });
        const canceled = await send(`/a2a/tasks/${sent.body.id as string}/cancel`, {});
        expect((canceled.body.status as Json).state).toBe('canceled');
        expect((await send('/a2a/tasks/no-such-task/cancel', {})).status).toBe(404);
        const ofEcho = await send('/a2a/agents/echo', {
          ...POCKETPAW_SEND,
          params: { ...POCKETPAW_SEND.params, configuration: { blocking: false } },
        });
        expect((await send(`/a2a/tasks/${(ofEcho.body.result as Json).id as string}/cancel`, {})).status).toBe(404);
      });
    });
  });

  describe('a v0.3 client discovering agents from the v0.3 fields of their cards', () => {
    it.each<Binding>(['JSONRPC', 'HTTP+JSON'])('sends, streams, gets and cancels over %s', async (binding) => {
      const { body: served } = await get('/a2a/agents/slow/agent-card.json', {});
      const { supportedInterfaces, ...legacyOnly } = served; // what a v0.3 client reads
      expect(supportedInterfaces).toBeDefined();
      const fetchImpl = authenticatedFetch();
      const legacyCompat = { enabled: true };
      const resolver = new DefaultAgentCardResolver({ fetchImpl, legacyCompat });
      const card = resolver.normalizeAgentCard(legacyOnly);
      expect(card.supportedInterfaces.map((i) => i.protocolVersion.slice(0, 3))).toEqual(['0.3', '0.3', '0.3']);
      const factory = new ClientFactory({
        transports: [
          new JsonRpcTransportFactory({ fetchImpl, legacyCompat }),
          new RestTransportFactory({ fetchImpl, legacyCompat }),
        ],
        preferredTransports: [binding],
        cardResolver: resolver,
      });
      const client = await factory.createFromAgentCard(card);
      expect(client.protocolVersion).toBe('0.3');

      const events = await collect(client.sendMessageStream(userMessage('v03 stream')));
      expect(kinds(events)[0]).toBe('task');
      expect(kinds(events).filter((k) => k === 'artifactUpdate')).toHaveLength(5);
      const taskId = (events[0].payload!.value as { id: string }).id;
      expect((await client.getTask({ id: taskId, tenant: '' })).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

      const request = userMessage('v03 cancel');
      request.configuration = { acceptedOutputModes: [], returnImmediately: true } as never;
      const running = asTask(await client.sendMessage(request));
      const canceled = await client.cancelTask({ id: running.id, tenant: '' } as never);
      expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    });
  });

  describe('agent cards', () => {
    it('serves the primary card at both well-known paths, publicly, with v0.3 and v1.0 fields', async () => {
      const current = await get('/.well-known/agent-card.json', {});
      const alias = await get('/.well-known/agent.json', {});
      expect(current.status).toBe(200);
      expect(alias.body).toEqual(current.body);
      expect(current.body).toMatchObject({
        name: 'echo',
        url: `${url}/a2a/agents/echo`,
        preferredTransport: 'JSONRPC',
        protocolVersion: '0.3.0',
        capabilities: { streaming: true, pushNotifications: true },
        securitySchemes: { bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }) },
        security: [{ bearer: [] }],
      });
      expect(current.body.supportedInterfaces).toEqual(
        expect.arrayContaining([
          { url: `${url}/a2a/agents/echo`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
          { url: `${url}/a2a/rest/agents/echo`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
          { url: `${url}/a2a/agents/echo`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
        ]),
      );
    });

    it('lists every agent\u2019s card as {agents, total}, and answers 404 for an unknown agent', async () => {
      const { body } = await get('/a2a/agents', {});
      expect(body.total).toBe(6);
      expect(body.agents.map((a: Json) => a.name)).toEqual(['echo', 'slow', 'ask', 'broken', 'replier', 'picky']);
      expect((await get('/a2a/agents/slow/agent-card.json', {})).body.name).toBe('slow');
      expect((await get('/a2a/agents/nobody/agent-card.json', {})).status).toBe(404);
    });
  });
});
