/**
 * Parts and text per message are limited (`a2a.max_message_parts`, `a2a.max_message_text_chars`)
 * in every dialect a message arrives in, and a message past them is refused before any task exists.
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { connectV1, textOf } from '../mcp-server/support/mcp-clients';
import { bearer, startTestApp, testConfig } from '../support/test-app';
import type { Json } from '../support/json';

const MAX_PARTS = 3;
const MAX_TEXT_CHARS = 20;
const PARTS_LIMIT = /4 parts, more than the 3 a message may have \(a2a\.max_message_parts\)/;
const TEXT_LIMIT = /21 characters of text, more than the 20 a message may have \(a2a\.max_message_text_chars\)/;

const texts = (...values: string[]) => values.map((text) => ({ text }));
const v1Send = (parts: Json[], method = 'SendMessage') => ({
  jsonrpc: '2.0',
  id: 1,
  method,
  params: { message: { messageId: 'm1', role: 'ROLE_USER', parts } },
});

async function post(
  url: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json }> {
  const response = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...bearer(), ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

async function taskCount(url: string): Promise<number> {
  const { body } = await post(
    url,
    '/a2a',
    { jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} },
    { 'a2a-version': '1.0' },
  );
  return (body.result.tasks as unknown[]).length;
}

describe('message limits', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    ({ app, url } = await startTestApp(
      testConfig({
        SWITCHBOARD_MAX_MESSAGE_PARTS: String(MAX_PARTS),
        SWITCHBOARD_MAX_MESSAGE_TEXT_CHARS: String(MAX_TEXT_CHARS),
      }),
    ));
  });

  afterAll(async () => {
    await app?.close();
  });

  it('takes a message at both limits', async () => {
    const { body } = await post(url, '/a2a', v1Send(texts('12345', '67890', '1234567890')), { 'a2a-version': '1.0' });
    expect(body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  describe('refuses a message past them, naming the limit, and creates no task', () => {
    let tasksBefore: number;

    beforeAll(async () => {
      tasksBefore = await taskCount(url);
    });

    it.each(['SendMessage', 'SendStreamingMessage'])('v1.0 JSON-RPC %s: -32602', async (method) => {
      const { status, body } = await post(url, '/a2a', v1Send(texts('a', 'b', 'c', 'd'), method), {
        'a2a-version': '1.0',
      });
      expect(status).toBe(200);
      expect(body.error.code).toBe(-32602);
      expect(body.error.message).toMatch(PARTS_LIMIT);
    });

    it('v1.0 JSON-RPC: text over the limit in all parts together', async () => {
      const { body } = await post(url, '/a2a', v1Send(texts('1234567890', '12345678901')), { 'a2a-version': '1.0' });
      expect(body.error).toMatchObject({ code: -32602, message: expect.stringMatching(TEXT_LIMIT) });
    });

    it('v0.3 JSON-RPC: -32602', async () => {
      const parts = ['a', 'b', 'c', 'd'].map((text) => ({ kind: 'text', text }));
      const { body } = await post(url, '/a2a', {
        jsonrpc: '2.0',
        id: 1,
        method: 'message/send',
        params: { message: { messageId: 'm1', role: 'user', parts } },
      });
      expect(body.error).toMatchObject({ code: -32602, message: expect.stringMatching(PARTS_LIMIT) });
    });

    it('v1.0 HTTP+JSON: 400 with a JSON error', async () => {
      const { status, body } = await post(
        url,
        '/a2a/rest/message:send',
        v1Send(texts('123456789012345678901')).params,
        {
          'a2a-version': '1.0',
        },
      );
      expect(status).toBe(400);
      expect(JSON.stringify(body)).toMatch(TEXT_LIMIT);
    });

    it('v0.3 HTTP+JSON: 400 with a JSON error', async () => {
      const request = { messageId: 'm1', role: 'ROLE_USER', content: texts('a', 'b', 'c', 'd') };
      const { status, body } = await post(url, '/a2a/rest/v1/message:send', { request });
      expect(status).toBe(400);
      expect(JSON.stringify(body)).toMatch(PARTS_LIMIT);
    });

    it("the seeds' REST route: 400 invalid_params", async () => {
      const parts = ['a', 'b', 'c', 'd'].map((text) => ({ type: 'text', text }));
      const { status, body } = await post(url, '/a2a/tasks/send', { message: { role: 'user', parts } });
      expect(status).toBe(400);
      expect(body).toMatchObject({
        error: 'invalid_params',
        code: -32602,
        message: expect.stringMatching(PARTS_LIMIT),
      });
    });

    it('an agent called over /mcp: an error result', async () => {
      const { client } = await connectV1(url);
      const result = await client.callTool({
        name: 'switchboard_agent_echo',
        arguments: { message: '123456789012345678901' },
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(TEXT_LIMIT);
      const started = await client.callTool({
        name: 'subagent_start',
        arguments: { subagentUri: 'a2a-agent://echo', text: '123456789012345678901' },
      });
      expect(started.isError).toBe(true);
      expect(textOf(started)).toMatch(TEXT_LIMIT);
      await client.close();
    });

    it('created no task for any of them', async () => {
      expect(await taskCount(url)).toBe(tasksBefore);
    });
  });
});

describe('a send of 100,000 parts under the default limits', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    ({ app, url } = await startTestApp(testConfig()));
  });

  afterAll(async () => {
    await app?.close();
  });

  it('is refused with -32602 before any task exists, while /healthz answers', async () => {
    const parts = Array.from({ length: 100_000 }, (_, index) => ({ text: `part ${index}` }));
    const sent = post(url, '/a2a', v1Send(parts), { 'a2a-version': '1.0' });
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    const { body } = await sent;
    expect(body.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('100000 parts, more than the 1000 a message may have (a2a.max_message_parts)'),
    });
    expect(await taskCount(url)).toBe(0);
  });
});
