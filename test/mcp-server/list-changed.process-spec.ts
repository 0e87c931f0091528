/**
 * Tool-list changes reach Switchboard's own MCP clients: an upstream MCP server registers a tool at
 * run time (the fixture's `add_tool`), Switchboard refreshes, and every client connected to it hears
 * `notifications/tools/list_changed`: a 2025-era client on its session's GET stream, a 2026-07-28
 * client on `subscriptions/listen`, and stdio clients (embedded and relayed) on their pipe.
 */
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { firstText, startMcpApp, stdioServer, toolsListed, type McpTestApp } from '../mcp-client/support/mcp-app';
import { DYNAMIC_SERVER } from '../mcp-client/support/mcp-servers';
import { writeConfigFile } from '../support/config-file';
import { bearer, TEST_API_KEY } from '../support/test-app';
import { connectV1, connectV2 } from './support/mcp-clients';
import { rawMcp } from './support/raw-mcp';

const BIN = resolve(__dirname, '../../bin/switchboard.js');
const UPSTREAM_TOML = stdioServer('dyn', DYNAMIC_SERVER, ['legacy']);
const CLIENT_INFO = { name: 'list-changed-test', version: '1.0.0' };

/** What a client's `listChanged.tools.onChanged` saw, and a way to wait for a tool to show up there. */
function toolListWatch() {
  const seen: string[][] = [];
  const waiters: { name: string; found: () => void }[] = [];
  const onChanged = (error: Error | null, tools: { name: string }[] | null) => {
    if (error || !tools) return;
    const names = tools.map((tool) => tool.name);
    seen.push(names);
    for (const waiter of waiters.filter((w) => names.includes(w.name))) waiter.found();
  };
  const announced = (name: string, timeoutMs = 10_000) =>
    new Promise<void>((found, failed) => {
      if (seen.some((names) => names.includes(name))) return found();
      const timer = setTimeout(
        () => failed(new Error(`no tools/list_changed announced ${name}; lists seen: ${JSON.stringify(seen)}`)),
        timeoutMs,
      );
      waiters.push({ name, found: () => (clearTimeout(timer), found()) });
    });
  return { listChanged: { tools: { onChanged } }, announced };
}

interface ToolClient {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
}

/** Has the upstream register a tool (through `client`, like any tool call) and returns its namespaced name. */
async function addUpstreamTool(client: ToolClient): Promise<string> {
  const added = firstText(
    (await client.callTool({ name: 'mcp_dyn_add_tool', arguments: {} })) as { content?: unknown },
  );
  expect(added).toMatch(/^added_\d+$/);
  return `mcp_dyn_${added}`;
}

async function expectAnnouncedAndCallable(client: ToolClient, watch: ReturnType<typeof toolListWatch>): Promise<void> {
  const name = await addUpstreamTool(client);
  await watch.announced(name);
  expect(firstText((await client.callTool({ name, arguments: {} })) as { content?: unknown })).toBe(
    name.replace('mcp_dyn_', ''),
  );
}

describe('tool-list changes announced to MCP clients', () => {
  let target: McpTestApp;

  beforeAll(async () => {
    target = await startMcpApp(UPSTREAM_TOML);
    await toolsListed(target.tools, ['mcp_dyn_add_tool']);
  });

  afterAll(async () => {
    await target?.app.close();
  });

  it('reach a 2025-era client over its session GET stream', async () => {
    const watch = toolListWatch();
    const { client } = await connectV1(target.url, { listChanged: watch.listChanged });
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    await expectAnnouncedAndCallable(client, watch);
    await client.close();
  });

  it('reach a 2026-07-28 client over subscriptions/listen', async () => {
    const watch = toolListWatch();
    const client = await connectV2(target.url, { listChanged: watch.listChanged });
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    await expectAnnouncedAndCallable(client, watch);
    await client.close();
  });

  it('reach a stdio client through the relay (switchboard mcp with SWITCHBOARD_URL)', async () => {
    const watch = toolListWatch();
    const client = await stdioClient({ SWITCHBOARD_URL: target.url, SWITCHBOARD_API_KEY: TEST_API_KEY }, watch);
    await expectAnnouncedAndCallable(client, watch);
    await client.close();
  });

  describe('the GET stream', () => {
    it('needs a session: without one it is 405, with an unknown one 404', async () => {
      expect((await rawMcp(target.url, 'GET')).status).toBe(405);
      expect((await rawMcp(target.url, 'GET', undefined, { 'mcp-session-id': 'no-such-session' })).status).toBe(404);
    });

    it('answers 406 to a GET that does not accept an event stream', async () => {
      const sessionId = await openSession(target.url);
      const response = await rawMcp(target.url, 'GET', undefined, {
        'mcp-session-id': sessionId,
        accept: 'application/json',
      });
      expect(response.status).toBe(406);
    });

    it('ends when the session is deleted', async () => {
      const sessionId = await openSession(target.url);
      const stream = await fetch(new URL('/mcp', target.url), {
        headers: { ...bearer(), accept: 'text/event-stream', 'mcp-session-id': sessionId },
      });
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toBe('text/event-stream');
      const body = stream.text();
      const deleted = await fetch(new URL('/mcp', target.url), {
        method: 'DELETE',
        headers: { ...bearer(), 'mcp-session-id': sessionId },
      });
      expect(deleted.status).toBe(200);
      await expect(body).resolves.toContain(': open');
    });
  });
});

/**
 * Reads a session's GET stream until the server has sent `count` keep-alive frames, which it sends
 * every third of the session TTL: after four, more than a TTL has passed since the stream opened.
 */
async function readKeepAlives(body: ReadableStream<Uint8Array>, count: number): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while ((text.match(/^: keep-alive$/gm) ?? []).length < count) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stream ended after: ${JSON.stringify(text)}`);
    text += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
}

describe('a session whose GET stream is open', () => {
  it('does not expire while the stream is open; one without a stream does', async () => {
    const target = await startMcpApp('[mcp_server]\nsession_ttl_secs = 1\n');
    try {
      const [idle, streaming] = [await openSession(target.url), await openSession(target.url)];
      const stream = await fetch(new URL('/mcp', target.url), {
        headers: { ...bearer(), accept: 'text/event-stream', 'mcp-session-id': streaming },
      });
      expect(stream.status).toBe(200);
      await readKeepAlives(stream.body!, 4);
      const ping = (sessionId: string) =>
        rawMcp(target.url, 'POST', JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }), {
          'mcp-session-id': sessionId,
          'mcp-protocol-version': '2025-11-25',
        });
      expect((await ping(idle)).status).toBe(404);
      expect((await ping(streaming)).status).toBe(200);
      await stream.body?.cancel();
    } finally {
      await target.app.close();
    }
  });
});

describe('shutdown with change streams open', () => {
  it('ends GET streams and subscriptions/listen streams, so the HTTP server closes at once', async () => {
    const target = await startMcpApp('');
    const { client: v1 } = await connectV1(target.url, { listChanged: toolListWatch().listChanged });
    const v2 = await connectV2(target.url, { listChanged: toolListWatch().listChanged });
    // Both streams are open once a request after the handshake has been answered.
    await Promise.all([v1.listTools(), v2.listTools()]);
    const started = Date.now();
    await target.app.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    await Promise.all([v1.close(), v2.close()]);
  });
});

describe('tool-list changes over embedded stdio (switchboard mcp, no service running)', () => {
  it('announces the upstream tools once they connect, and tools added later', async () => {
    const watch = toolListWatch();
    const client = await stdioClient({ SWITCHBOARD_CONFIG: writeConfigFile(UPSTREAM_TOML) }, watch);
    // The upstream connects in the background, after this client's handshake.
    await watch.announced('mcp_dyn_add_tool', 15_000);
    await expectAnnouncedAndCallable(client, watch);
    await client.close();
  });
});

async function stdioClient(env: Record<string, string>, watch: ReturnType<typeof toolListWatch>): Promise<ClientV1> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    cwd: mkdtempSync(join(tmpdir(), 'switchboard-mcp-')),
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    stderr: 'ignore',
  });
  const client = new ClientV1(CLIENT_INFO, { listChanged: watch.listChanged });
  await client.connect(transport);
  return client;
}

/** A 2025-era session opened with a raw `initialize`; returns its id. */
async function openSession(url: string): Promise<string> {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO },
  };
  const response = await rawMcp(url, 'POST', JSON.stringify(initialize), { 'mcp-protocol-version': '2025-11-25' });
  const sessionId = response.headers['mcp-session-id'];
  expect(typeof sessionId).toBe('string');
  return sessionId as string;
}
