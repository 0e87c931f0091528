/**
 * What widely used A2A clients that nobody here wrote send, byte for byte where the official client
 * cannot say it, and what they need back. Each describe is one finding of trying them.
 */
import { DefaultAgentCardResolver } from '@a2a-js/sdk/client';
import { randomUUID } from 'node:crypto';
import { postJson } from '../faults/support/store-outage-clients';
import { bearer } from '../support/test-app';
import { type DurableTestApp, startDurableTestApp } from '../support/durable-test-app';
import { artifactText, asTask, collect, sdkClient, userMessage } from '../support/sdk-client';
import type { Json } from '../support/json';

describe('third-party A2A clients', () => {
  let service: DurableTestApp;

  const rpc = async (path: string, method: string, params: unknown, headers: Record<string, string> = {}) =>
    (await postJson(service.url + path, { jsonrpc: '2.0', id: 1, method, params }, headers)).body as Json;

  beforeAll(async () => {
    service = await startDurableTestApp();
  });

  afterAll(() => service?.close());

  describe('output modes in their short forms', () => {
    // A TypeScript AI SDK's A2A provider always sends this configuration.
    const v03Send = (modes: string[]) => ({
      message: {
        kind: 'message',
        messageId: randomUUID(),
        role: 'user',
        parts: [{ kind: 'text', text: 'short modes' }],
      },
      configuration: { acceptedOutputModes: modes, blocking: true },
    });

    it.each([[['text']], [['json']], [['*/*']], [['text/*']], [[]]])(
      'are accepted over v0.3 JSON-RPC: %j',
      async (modes) => {
        const answer = await rpc('/a2a/agents/echo', 'message/send', v03Send(modes));
        expect(answer.error).toBeUndefined();
        expect(answer.result.status.state).toBe('completed');
      },
    );

    it('are accepted over v1.0 JSON-RPC', async () => {
      const params = {
        message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'short modes' }] },
        configuration: { acceptedOutputModes: ['text'] },
      };
      const answer = await rpc('/a2a/agents/echo', 'SendMessage', params, { 'a2a-version': '1.0' });
      expect(answer.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    });

    it('are accepted from the official client', async () => {
      const client = await sdkClient(service.url, 'echo', 'JSONRPC');
      const request = userMessage('short modes');
      request.configuration = { acceptedOutputModes: ['text'], returnImmediately: false } as never;
      expect(artifactText(asTask(await client.sendMessage(request)))).toBe('short modes');
    });

    it('still refuse a real mismatch (-32005)', async () => {
      const answer = await rpc('/a2a/agents/echo', 'message/send', v03Send(['image/png']));
      expect(answer.error.code).toBe(-32005);
    });
  });

  describe("an agent's URL as clients are given it", () => {
    it.each(['agent.json', 'agent-card.json'])(
      'serves the card at {url}/.well-known/%s, where 0.2-era clients look for it',
      async (file) => {
        const response = await fetch(`${service.url}/a2a/agents/slow/.well-known/${file}`);
        expect(response.status).toBe(200);
        const card = (await response.json()) as Json;
        expect({ name: card.name, url: card.url }).toEqual({ name: 'slow', url: `${service.url}/a2a/agents/slow` });
      },
    );

    it("is enough for the official client's resolver (which resolves the well-known path against it as a directory)", async () => {
      const card = await new DefaultAgentCardResolver().resolve(`${service.url}/a2a/agents/slow/`);
      expect(card.name).toBe('slow');
    });
  });

  describe('tasks/resubscribe on an unknown task (v0.3)', () => {
    it('answers as a stream: text/event-stream with the error event, as the reference server does', async () => {
      const response = await fetch(`${service.url}/a2a/agents/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...bearer() },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tasks/resubscribe', params: { id: 'no-such-task' } }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const event = (await response.text()).trim().split('\n');
      expect(event[0]).toBe('event: error');
      expect(JSON.parse(event[1].replace(/^data: /, ''))).toMatchObject({
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32001 },
      });
    });
  });

  describe('v0.3 HTTP+JSON with proto field names', () => {
    it('takes a send whose fields are named as in the proto (message_id, accepted_output_modes)', async () => {
      const body = {
        request: {
          message_id: randomUUID(),
          context_id: randomUUID(),
          role: 'ROLE_USER',
          content: [{ text: 'proto names' }],
        },
        configuration: { accepted_output_modes: ['text/plain'], history_length: 1, blocking: true },
      };
      const answer = await postJson(`${service.url}/a2a/rest/agents/echo/v1/message:send`, body);
      expect(answer.status).toBe(201);
      expect((answer.body as Json).task.status.state).toBe('TASK_STATE_COMPLETED');
    });
  });

  describe("a turn's answer", () => {
    // Two client libraries concatenate the final status message and the artifacts: each piece of text must be in one place.
    const texts = (value: Json): string[] => [
      ...(value.status?.message?.parts ?? []).map((part: Json) => part.text),
      ...(value.artifacts ?? []).flatMap((artifact: Json) => artifact.parts.map((part: Json) => part.text)),
    ];

    it('is in the artifacts only, not repeated in the final status message', async () => {
      const answer = await rpc('/a2a/agents/echo', 'message/send', {
        message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'once' }] },
      });
      expect(answer.result.status.state).toBe('completed');
      expect(texts(answer.result).join('')).toBe('once');
    });

    it('reaches a streaming client once', async () => {
      const events = await collect(
        (await sdkClient(service.url, 'echo', 'JSONRPC')).sendMessageStream(userMessage('once, streamed')),
      );
      const seen = events.flatMap((event) => {
        const payload = event.payload;
        if (payload?.$case === 'artifactUpdate')
          return payload.value.artifact?.parts.map((part) => part.content?.value) ?? [];
        if (payload?.$case === 'statusUpdate')
          return payload.value.status?.message?.parts.map((part) => part.content?.value) ?? [];
        return [];
      });
      expect(seen.join('')).toBe('once, streamed');
    });
  });

  describe('the media type application/a2a+json (v1.0.1)', () => {
    const send = (headers: Record<string, string>) =>
      fetch(`${service.url}/a2a/agents/echo`, {
        method: 'POST',
        headers: { ...bearer(), 'a2a-version': '1.0', ...headers },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'typed' }] } },
        }),
      });

    it('is taken in a request, and answered in when the client accepts it', async () => {
      const response = await send({
        'content-type': 'application/a2a+json',
        accept: 'application/a2a+json, application/json;q=0.5',
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/a2a\+json/);
      expect(((await response.json()) as Json).result.task.status.state).toBe('TASK_STATE_COMPLETED');
    });

    it('leaves application/json to clients that do not ask for it', async () => {
      const response = await send({ 'content-type': 'application/json', accept: 'application/json' });
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    });
  });
});
