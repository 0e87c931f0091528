/**
 * `/mcp` through the official SDK clients of both eras (1.x: 2025-era sessions; v2 in `auto`
 * negotiation: 2026-07-28, stateless), against the test agents running real turns on the queue.
 */
import { type DurableTestApp, startDurableTestApp } from '../../support/durable-test-app';
import { TEST_AGENTS_TOML } from '../../support/test-agents';
import { writeConfigFile } from '../../support/config-file';
import { TaskState } from '@a2a-js/sdk';
import { SwitchboardMcpServerFactory } from '../../../src/mcp-server/server/switchboard-mcp-server.factory';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearer } from '../../support/test-app';
import {
  cancelOnFirstChunk,
  connectV1,
  connectV2,
  expectCanceled,
  TASK_ID_MESSAGE,
  taskWithMessage,
  textOf,
} from '../support/mcp-clients';
import { modernHeaders, modernMeta, rawMcp, rpc } from '../support/raw-mcp';

describe('MCP server over Streamable HTTP at /mcp', () => {
  let app: DurableTestApp;

  beforeAll(async () => {
    app = await startDurableTestApp({
      SWITCHBOARD_CONFIG: writeConfigFile(
        `${TEST_AGENTS_TOML}\n[mcp_server]\nallowed_origins = ["app.example.com"]\n[outbound]\nallow_hosts = ["127.0.0.1"]\n`,
      ),
    });
  });

  afterAll(async () => {
    await app?.close();
  });

  describe('a 2025-era client (SDK 1.x)', () => {
    it('initializes a session and lists every hosted agent as a tool', async () => {
      const { client, transport } = await connectV1(app.url);
      expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(transport.protocolVersion).toBe('2025-11-25');
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(
        expect.arrayContaining(['switchboard_agent_echo', 'switchboard_agent_slow', 'switchboard_agent_broken']),
      );
      await client.close();
    });

    it("runs the agent's turn and answers with its text", async () => {
      const { client } = await connectV1(app.url);
      const result = await client.callTool({
        name: 'switchboard_agent_echo',
        arguments: { message: 'hello from 1.x' },
      });
      expect(textOf(result)).toBe('hello from 1.x');
      expect(result.isError).toBeFalsy();
      await client.close();
    });

    it('reports progress while a slow turn runs', async () => {
      const { client } = await connectV1(app.url);
      const messages: string[] = [];
      const result = await client.callTool(
        { name: 'switchboard_agent_slow', arguments: { message: '0123456789' } },
        undefined,
        {
          onprogress: (progress) => messages.push(progress.message ?? ''),
        },
      );
      expect(textOf(result)).toBe('0123456789');
      expect(messages[0]).toMatch(TASK_ID_MESSAGE);
      expect(messages).toEqual(expect.arrayContaining(['01', '23', '45', '67', '89']));
      await client.close();
    });

    it('cancels the task when the client cancels the call', async () => {
      const { client } = await connectV1(app.url);
      const cancel = cancelOnFirstChunk();
      await expect(
        client.callTool({ name: 'switchboard_agent_slow', arguments: { message: '0123456789' } }, undefined, cancel),
      ).rejects.toThrow();
      await expectCanceled(app.url, cancel.taskId());
      await client.close();
    });

    it('ends a failed turn with an error result', async () => {
      const { client } = await connectV1(app.url);
      const result = await client.callTool({ name: 'switchboard_agent_broken', arguments: { message: 'go' } });
      expect(result.isError).toBe(true);
      await client.close();
    });

    it('forgets a session on DELETE: its id then answers 404', async () => {
      const { client, transport } = await connectV1(app.url);
      const sessionId = transport.sessionId!;
      await transport.terminateSession();
      const after = await rawMcp(app.url, 'POST', rpc('tools/list'), {
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-11-25',
      });
      expect(after.status).toBe(404);
      await client.close();
    });
  });

  describe('a 2024-11-05 client (raw requests, as the oldest clients send them)', () => {
    it('gets its own version back, a session, and tools it can call', async () => {
      const init = await rawMcp(
        app.url,
        'POST',
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'old', version: '0' } },
        }),
      );
      expect(init.status).toBe(200);
      expect(init.message?.result).toMatchObject({ protocolVersion: '2024-11-05', capabilities: { tools: {} } });
      const session = init.headers['mcp-session-id'] as string;
      expect(session).toMatch(/^[0-9a-f-]{36}$/);
      // 2024-11-05 predates the MCP-Protocol-Version header: the session alone carries the version.
      const headers = { 'mcp-session-id': session };
      expect(
        (
          await rawMcp(
            app.url,
            'POST',
            JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
            headers,
          )
        ).status,
      ).toBe(202);
      const call = await rawMcp(
        app.url,
        'POST',
        rpc('tools/call', { name: 'switchboard_agent_echo', arguments: { message: 'from 2024' } }, 2),
        headers,
      );
      expect(call.message?.result).toMatchObject({ content: [{ type: 'text', text: 'from 2024' }] });
    });
  });

  describe('a 2026-07-28 client (SDK v2, auto negotiation)', () => {
    it('negotiates the stateless era and calls an agent', async () => {
      const client = await connectV2(app.url);
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('switchboard_agent_echo');
      const result = await client.callTool({ name: 'switchboard_agent_echo', arguments: { message: 'hello from v2' } });
      expect(textOf(result)).toBe('hello from v2');
      await client.close();
    });

    it('reports progress while a slow turn runs', async () => {
      const client = await connectV2(app.url);
      const messages: string[] = [];
      const result = await client.callTool(
        { name: 'switchboard_agent_slow', arguments: { message: '0123456789' } },
        { onprogress: (progress) => messages.push(progress.message ?? '') },
      );
      expect(textOf(result)).toBe('0123456789');
      expect(messages).toEqual(expect.arrayContaining(['01', '23', '45', '67', '89']));
      await client.close();
    });

    it('cancels the task when the client cancels the call', async () => {
      const client = await connectV2(app.url);
      const cancel = cancelOnFirstChunk();
      await expect(
        client.callTool({ name: 'switchboard_agent_slow', arguments: { message: '0123456789' } }, cancel),
      ).rejects.toThrow();
      await expectCanceled(app.url, cancel.taskId());
      await client.close();
    });

    it('cancels the task when the client drops the connection before any output', async () => {
      // No progress token: the answer would be plain JSON, so only the closed connection tells.
      const text = `dropped ${Date.now()}`;
      const call = {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'switchboard_agent_slow', arguments: { message: text }, _meta: modernMeta() },
      };
      const dropped = new AbortController();
      const sent = fetch(new URL('/mcp', app.url), {
        method: 'POST',
        headers: { ...modernHeaders('tools/call', 'switchboard_agent_slow'), ...bearer() },
        body: JSON.stringify(call),
        signal: dropped.signal,
      });
      // Dropped while the turn runs, which is long before its answer (the only output) is due.
      await taskWithMessage(app.url, 'slow', text, TaskState.TASK_STATE_WORKING);
      dropped.abort();
      await expect(sent).rejects.toThrow();
      const task = await taskWithMessage(app.url, 'slow', text, TaskState.TASK_STATE_CANCELED);
      expect(task?.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    });
  });

  describe('built-in tools', () => {
    it('offers web_fetch and runs it under the SSRF rules', async () => {
      const page = createServer((_req, res) =>
        res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Hello <b>from</b> a page</p>'),
      );
      await new Promise<void>((listening) => page.listen(0, '127.0.0.1', listening));
      const client = await connectV2(app.url);
      try {
        expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('web_fetch');
        const fetched = await client.callTool({
          name: 'web_fetch',
          arguments: { url: `http://127.0.0.1:${(page.address() as AddressInfo).port}/` },
        });
        expect(fetched.isError).toBeFalsy();
        expect(textOf(fetched)).toContain('Hello from a page');
        const refused = await client.callTool({
          name: 'web_fetch',
          arguments: { url: 'http://169.254.169.254/latest/meta-data/' },
        });
        expect(refused.isError).toBe(true);
        expect(textOf(refused)).toMatch(/^Refused: /);
      } finally {
        await client.close();
        page.close();
      }
    });
  });

  describe('access', () => {
    it('answers 401 without a bearer token', async () => {
      const response = await rawMcp(app.url, 'POST', rpc('tools/list'), { authorization: '' });
      expect(response.status).toBe(401);
    });

    it('answers 401 to a wrong key', async () => {
      const response = await rawMcp(app.url, 'POST', rpc('tools/list'), {
        authorization: 'Bearer not-the-key-0123456789',
      });
      expect(response.status).toBe(401);
    });

    it('rejects a Host that is not allowed (DNS rebinding)', async () => {
      const response = await rawMcp(app.url, 'POST', rpc('tools/list'), { host: 'evil.example:8080' });
      expect(response.status).toBe(403);
    });

    it('rejects a browser Origin that is not allowed, accepts a configured one', async () => {
      expect((await rawMcp(app.url, 'POST', rpc('tools/list'), { origin: 'https://evil.example' })).status).toBe(403);
      const allowed = await rawMcp(app.url, 'POST', rpc('tools/list'), { origin: 'https://app.example.com' });
      expect(allowed.status).toBe(200);
      expect(allowed.message?.result).toBeDefined();
    });
  });

  describe('protocol errors', () => {
    it('answers an unknown method with -32601', async () => {
      const response = await rawMcp(app.url, 'POST', rpc('tools/frobnicate'));
      expect(response.message?.error?.code).toBe(-32601);
    });

    it('answers a tools/call without a tool name with -32602', async () => {
      const response = await rawMcp(app.url, 'POST', rpc('tools/call', { arguments: {} }));
      expect(response.message?.error?.code).toBe(-32602);
    });

    it('answers a call to an unknown tool with -32602', async () => {
      const response = await rawMcp(
        app.url,
        'POST',
        rpc('tools/call', { name: 'switchboard_agent_nobody', arguments: { message: 'x' } }),
      );
      expect(response.message?.error?.code).toBe(-32602);
    });

    it('answers a 2026-07-28 call to an unknown tool with -32602 too', async () => {
      const params = { name: 'switchboard_agent_nobody', arguments: { message: 'x' }, _meta: modernMeta() };
      const response = await rawMcp(
        app.url,
        'POST',
        rpc('tools/call', params),
        modernHeaders('tools/call', 'switchboard_agent_nobody'),
      );
      expect(response.message?.error?.code).toBe(-32602);
    });

    it('runs a 2026-07-28 call without the other tools in its server', async () => {
      const built = jest.spyOn(app.app.get(SwitchboardMcpServerFactory), 'create');
      try {
        const params = { name: 'switchboard_agent_echo', arguments: { message: 'just me' }, _meta: modernMeta() };
        const response = await rawMcp(
          app.url,
          'POST',
          rpc('tools/call', params),
          modernHeaders('tools/call', 'switchboard_agent_echo'),
        );
        expect(response.message?.result).toMatchObject({ content: [{ type: 'text', text: 'just me' }] });
        expect(built).toHaveBeenCalledWith(expect.anything(), 'modern', { tool: 'switchboard_agent_echo' });
      } finally {
        built.mockRestore();
      }
    });

    it.each([
      ['not JSON', '{"jsonrpc":'],
      ['a JSON array of numbers', '[1,2,3]'],
      ['a message without a method', '{"jsonrpc":"2.0","id":1}'],
      ['a string', '"tools/list"'],
    ])('answers %s with a client error and keeps serving', async (_label, body) => {
      const response = await rawMcp(app.url, 'POST', body);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect((await rawMcp(app.url, 'POST', rpc('tools/list'))).message?.result).toBeDefined();
    });
  });
});
