import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomUUID } from 'node:crypto';
import { createHttpApp } from '../../../src/app.factory';
import { configSchema } from '../../../src/config/config.schema';
import { MCP_SESSION_STORE, type McpSessionStore } from '../../../src/mcp-server/stores/mcp-session-store.interface';

const KEYS = { alice: 'alice-key-0123456789abcdef', bob: 'bob-key-0123456789abcdef' };

/** Embedded mode (memory session and event stores, in-process queue) with one agent and two callers. */
const config = configSchema.parse({
  log: { level: 'silent' },
  auth: { api_keys: Object.entries(KEYS).map(([name, key]) => ({ name, key })) },
  agents: [
    { name: 'echo', executor: { type: 'echo' } },
    // Works for ten minutes: a call that runs until it is canceled.
    {
      name: 'endless',
      executor: { type: 'script', steps: [{ status: 'working' }, { delay_ms: 600_000 }, { status: 'completed' }] },
    },
  ],
});

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const SESSION_NOT_FOUND = { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null };
const PING = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });

/** The ids of the events of an event stream's text, in order. */
const eventIdsOf = (stream: string) => [...stream.matchAll(/^id: ?(.+)$/gm)].map(([, id]) => id);

describe('McpHttpEndpoint', () => {
  let app: NestFastifyApplication;
  let url: string;
  const clients: LegacyClient[] = [];

  /** A 2025-era session opened by the official 1.x client (`initialize`, then `Mcp-Session-Id`). */
  async function openSession(key = KEYS.alice): Promise<{ client: LegacyClient; transport: LegacyTransport }> {
    const transport = new LegacyTransport(new URL('/mcp', url), { requestInit: { headers: bearer(key) } });
    const client = new LegacyClient({ name: 'endpoint-spec', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return { client, transport };
  }

  /** A raw POST to `/mcp`, for answers whose exact form is the point: a JSON body parsed, an event stream as its text. */
  async function post(body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
    const response = await fetch(new URL('/mcp', url), {
      method: 'POST',
      headers: {
        ...bearer(KEYS.alice),
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body,
    });
    const text = await response.text();
    return {
      status: response.status,
      body: response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text,
    };
  }

  const sessionCount = () => app.get<McpSessionStore>(MCP_SESSION_STORE).count();

  beforeAll(async () => {
    app = await createHttpApp(config);
    await app.listen({ host: '127.0.0.1', port: 0 });
    url = await app.getUrl();
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await app?.close();
  });

  describe('a 2025-era client', () => {
    it('opens a session at initialize, in which its requests are served', async () => {
      const before = await sessionCount();
      const { client, transport } = await openSession();
      expect(transport.sessionId).toEqual(expect.any(String));
      expect(await sessionCount()).toBe(before + 1);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('switchboard_agent_echo');
      const result = await client.callTool({ name: 'switchboard_agent_echo', arguments: { message: 'in session' } });
      expect(result.content).toEqual([{ type: 'text', text: 'in session' }]);
    });

    it('gets 404 and the JSON-RPC error "Session not found" for a session nobody opened', async () => {
      expect(await post(PING, { 'mcp-session-id': randomUUID() })).toEqual({ status: 404, body: SESSION_NOT_FOUND });
    });

    it('gets the same for a session another caller opened', async () => {
      const { transport } = await openSession(KEYS.alice);
      expect(await post(PING, { 'mcp-session-id': transport.sessionId!, ...bearer(KEYS.bob) })).toEqual({
        status: 404,
        body: SESSION_NOT_FOUND,
      });
      expect(await post(PING, { 'mcp-session-id': transport.sessionId! })).toEqual({
        status: 200,
        body: expect.stringContaining('"result":{}'),
      });
    });

    it('ends its session with DELETE: the session is then unknown', async () => {
      const { transport } = await openSession();
      const sessionId = transport.sessionId!;
      const before = await sessionCount();
      await transport.terminateSession();
      expect(await sessionCount()).toBe(before - 1);
      expect(await post(PING, { 'mcp-session-id': sessionId })).toEqual({ status: 404, body: SESSION_NOT_FOUND });
    });

    it("gets a call's answer stream with event ids, which it can resume from any of them with Last-Event-ID", async () => {
      const { transport } = await openSession();
      const session = { 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-11-25' };
      const call = JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'switchboard_agent_echo', arguments: { message: 'resumed' } },
      });
      const answered = await post(call, session);
      expect(answered.status).toBe(200);
      const [priming] = eventIdsOf(answered.body as string);
      const resumed = await fetch(new URL('/mcp', url), {
        headers: { ...bearer(KEYS.alice), ...session, accept: 'text/event-stream', 'last-event-id': priming },
      });
      const replay = await resumed.text();
      expect(replay).toContain('"id":7');
      expect(replay).toContain('resumed');
      expect(eventIdsOf(replay)).not.toContain(priming);
    });

    it('gets 404 for a resumption after an event id its session never had', async () => {
      const { transport } = await openSession();
      const response = await fetch(new URL('/mcp', url), {
        headers: {
          ...bearer(KEYS.alice),
          'mcp-session-id': transport.sessionId!,
          accept: 'text/event-stream',
          'last-event-id': 'no-such-event',
        },
      });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({
        jsonrpc: '2.0',
        error: { code: -32000, message: expect.stringContaining('Cannot resume') },
        id: null,
      });
    });

    it('cancels a call with notifications/cancelled: its stream ends without an answer', async () => {
      const { transport } = await openSession();
      // A 2025-11-25 answer stream begins with a priming event: the call's headers come at once.
      const session = { 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-11-25' };
      const call = JSON.stringify({
        jsonrpc: '2.0',
        id: 'long',
        method: 'tools/call',
        params: { name: 'switchboard_agent_endless', arguments: { message: 'take your time' } },
      });
      const running = await fetch(new URL('/mcp', url), {
        method: 'POST',
        headers: {
          ...bearer(KEYS.alice),
          ...session,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: call,
      });
      const cancelled = await post(
        JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'long' } }),
        session,
      );
      expect(cancelled.status).toBe(202);
      expect(await running.text()).not.toContain('"result"');
    });

    it('is answered 406 on a GET stream it does not accept as an event stream', async () => {
      const { transport } = await openSession();
      const response = await fetch(new URL('/mcp', url), {
        headers: { ...bearer(KEYS.alice), 'mcp-session-id': transport.sessionId!, accept: 'application/json' },
      });
      expect(response.status).toBe(406);
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
    });
  });

  it('serves a 2026-07-28 client without a session', async () => {
    const before = await sessionCount();
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', url), {
      requestInit: { headers: bearer(KEYS.alice) },
    });
    const client = new Client({ name: 'endpoint-spec', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('switchboard_agent_echo');
      expect(await sessionCount()).toBe(before);
    } finally {
      await client.close();
    }
  });

  it('answers a body that is not JSON with a JSON-RPC parse error', async () => {
    expect(await post('{"jsonrpc": "2.0", "id": 1, "method": ')).toEqual({
      status: 400,
      body: { jsonrpc: '2.0', error: { code: -32700, message: expect.any(String) }, id: null },
    });
  });

  it('refuses a request from an origin it does not allow, and opens no session for it', async () => {
    const before = await sessionCount();
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } },
    });
    const refused = await post(initialize, { origin: 'http://rebinding.example' });
    expect(refused.status).toBe(403);
    expect(await sessionCount()).toBe(before);
  });
});

describe('McpHttpEndpoint at shutdown', () => {
  it("ends the sessions' GET streams, so that the server can close", async () => {
    const app = await createHttpApp(config);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const url = new URL('/mcp', await app.getUrl());
    const transport = new LegacyTransport(url, { requestInit: { headers: bearer(KEYS.alice) } });
    const client = new LegacyClient({ name: 'endpoint-spec', version: '1.0.0' });
    await client.connect(transport);
    const sessionId = transport.sessionId!;
    // The client's own GET stream, which it would reopen when the server ends it, is closed with the client.
    await client.close();
    const stream = await fetch(url, {
      headers: { ...bearer(KEYS.alice), 'mcp-session-id': sessionId, accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(200);
    const closed = app.close();
    // Resolves only once the server has ended the stream.
    await stream.text();
    await closed;
  });
});
