/**
 * Tools of connected MCP servers through `/mcp`, with the official clients of both eras: a server
 * that is down answers calls to its tools with an error naming it, and a canceled call is canceled
 * upstream too (the upstream server receives its own `notifications/cancelled`).
 */
import type { ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from '../support/free-port';
import { httpMcpServer, serverState, startMcpApp, toolsListed, type McpTestApp } from '../mcp-client/support/mcp-app';
import { killProcess, startEverythingServer } from '../mcp-client/support/mcp-servers';
import { SessionProxy } from '../mcp-client/support/session-proxy';
import { connectV1, connectV2, textOf } from './support/mcp-clients';

let everythingPort: number;
let everything: ChildProcess;
/** Between Switchboard and server-everything as server `relayed`: shows what reaches the upstream server. */
let proxy: SessionProxy;
let app: McpTestApp;
const LONG_RUNNING = 'mcp_relayed_trigger_long_running_operation';

function httpServer(name: string, port: number): string {
  return httpMcpServer(name, `http://127.0.0.1:${port}/mcp`, { timeoutSecs: 30 });
}

beforeAll(async () => {
  everythingPort = await freePort();
  const [nobodyPort, proxyPort] = [await freePort(), await freePort()];
  everything = await startEverythingServer('streamableHttp', everythingPort);
  proxy = new SessionProxy(everythingPort);
  await proxy.listen(proxyPort);
  app = await startMcpApp(`
[outbound]
allow_hosts = ["127.0.0.1"]
${httpServer('everything', everythingPort)}
${httpServer('relayed', proxyPort)}
${httpServer('never-up', nobodyPort)}
`);
  await toolsListed(app.tools, ['mcp_everything_echo', LONG_RUNNING]);
});

afterAll(async () => {
  await app?.app.close();
  await proxy?.close();
  if (everything) await killProcess(everything);
});

/** An abort signal that fires once the upstream server has been sent the call (bodies forwarded from `from` on). */
function cancelOnceUpstreamCalled(from: number): AbortSignal {
  const abort = new AbortController();
  void proxy.bodyContaining('trigger-long-running-operation', from).then(() => abort.abort());
  return abort.signal;
}

/** An HTTP server that takes requests and never answers; `closed` resolves when a request's connection is dropped. */
async function silentServer(): Promise<{
  url: string;
  requested: Promise<void>;
  closed: Promise<void>;
  server: Server;
}> {
  let requested!: () => void;
  let closed!: () => void;
  const promises = {
    requested: new Promise<void>((resolve) => (requested = resolve)),
    closed: new Promise<void>((resolve) => (closed = resolve)),
  };
  const server = createServer((request: IncomingMessage) => {
    requested();
    request.socket.once('close', closed);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, ...promises, server };
}

describe('a canceled call', () => {
  it('of an upstream MCP tool is canceled upstream, for a 2025-era client', async () => {
    const before = proxy.bodies.length;
    const { client } = await connectV1(app.url);
    const call = client.callTool({ name: LONG_RUNNING, arguments: { duration: 20, steps: 20 } }, undefined, {
      signal: cancelOnceUpstreamCalled(before),
    });
    await expect(call).rejects.toThrow();
    expect(JSON.parse(await proxy.bodyContaining('notifications/cancelled', before))).toMatchObject({
      method: 'notifications/cancelled',
    });
    await client.close();
  });

  it('of an upstream MCP tool is canceled upstream, for a 2026-07-28 client', async () => {
    const before = proxy.bodies.length;
    const client = await connectV2(app.url);
    const call = client.callTool(
      { name: LONG_RUNNING, arguments: { duration: 20, steps: 20 } },
      { signal: cancelOnceUpstreamCalled(before) },
    );
    await expect(call).rejects.toThrow();
    expect(JSON.parse(await proxy.bodyContaining('notifications/cancelled', before))).toMatchObject({
      method: 'notifications/cancelled',
    });
    await client.close();
  });

  it.each([
    [
      '2025-era',
      async (url: string, signal: AbortSignal) =>
        (await connectV1(app.url)).client.callTool({ name: 'web_fetch', arguments: { url } }, undefined, { signal }),
    ],
    [
      '2026-07-28',
      async (url: string, signal: AbortSignal) =>
        (await connectV2(app.url)).callTool({ name: 'web_fetch', arguments: { url } }, { signal }),
    ],
  ])('of web_fetch drops the fetch, for a %s client', async (_era, callWebFetch) => {
    const page = await silentServer();
    const abort = new AbortController();
    const call = callWebFetch(page.url, abort.signal);
    await page.requested;
    abort.abort();
    await expect(call).rejects.toThrow();
    await page.closed;
    page.server.closeAllConnections();
    page.server.close();
  });
});

describe('a tool of a server that is down', () => {
  it('is an error naming the server and its state, for a 2025-era client', async () => {
    const { client } = await connectV1(app.url);
    const result = await client.callTool({ name: 'mcp_never_up_echo', arguments: { message: 'hello?' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^Tool "mcp_[a-z_]*" failed: MCP server "never-up" is unavailable: .*\((re)?connecting\)$/,
    );
    await client.close();
  });

  it('is an error naming the server and its state, for a 2026-07-28 client', async () => {
    const client = await connectV2(app.url);
    const result = await client.callTool({ name: 'mcp_never_up_echo', arguments: { message: 'hello?' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Tool "mcp_[a-z_]*" failed: MCP server "never-up" is unavailable: /);
    await client.close();
  });

  it('is still an unknown tool (-32602) when no configured server has such tools', async () => {
    const { client } = await connectV1(app.url);
    await expect(client.callTool({ name: 'mcp_nobody_echo', arguments: {} })).rejects.toThrow(/not found/);
    await client.close();
  });

  it('names a server that dropped and is reconnecting, and serves its tools again once it is back', async () => {
    await killProcess(everything);
    await serverState(app.url, 'everything', 'retrying');
    const client = await connectV2(app.url);
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('mcp_everything_echo');
    const result = await client.callTool({ name: 'mcp_everything_echo', arguments: { message: 'anyone?' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^Tool "mcp_[a-z_]*" failed: MCP server "everything" is unavailable: .*\(reconnecting\)$/,
    );
    everything = await startEverythingServer('streamableHttp', everythingPort);
    await serverState(app.url, 'everything', 'connected');
    expect(textOf(await client.callTool({ name: 'mcp_everything_echo', arguments: { message: 'back' } }))).toBe(
      'Echo: back',
    );
    await client.close();
  });
});
