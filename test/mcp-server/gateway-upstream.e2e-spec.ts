/**
 * Tools of connected MCP servers through `/mcp`, with the official clients of both eras: a server
 * that is down answers calls to its tools with an error naming it, and a canceled call is canceled
 * upstream too (the upstream server receives its own `notifications/cancelled`).
 */
import type { ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from '../support/free-port';
import { serverState, startMcpApp, toolsListed, type McpTestApp } from '../mcp-client/support/mcp-app';
import { killProcess, startEverythingServer } from '../mcp-client/support/mcp-servers';
import { connectV1, connectV2, textOf } from './support/mcp-clients';

let everythingPort: number;
let everything: ChildProcess;
let app: McpTestApp;

function httpServer(name: string, port: number): string {
  return `
[[mcp_servers]]
name = "${name}"
timeout_secs = 30
[mcp_servers.transport]
type = "http"
url = "http://127.0.0.1:${port}/mcp"
`;
}

beforeAll(async () => {
  everythingPort = await freePort();
  const nobodyPort = await freePort();
  everything = await startEverythingServer('streamableHttp', everythingPort);
  app = await startMcpApp(`
[outbound]
allow_hosts = ["127.0.0.1"]
${httpServer('everything', everythingPort)}
${httpServer('never-up', nobodyPort)}
`);
  await toolsListed(app.tools, ['mcp_everything_echo']);
});

afterAll(async () => {
  await app?.app.close();
  if (everything) await killProcess(everything);
});

describe('a tool of a server that is down', () => {
  it('is an error naming the server and its state, for a 2025-era client', async () => {
    const { client } = await connectV1(app.url);
    const result = await client.callTool({ name: 'mcp_never_up_echo', arguments: { message: 'hello?' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^MCP server "never-up" is unavailable: .*\((re)?connecting\)$/);
    await client.close();
  });

  it('is an error naming the server and its state, for a 2026-07-28 client', async () => {
    const client = await connectV2(app.url);
    const result = await client.callTool({ name: 'mcp_never_up_echo', arguments: { message: 'hello?' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^MCP server "never-up" is unavailable: /);
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
    expect(textOf(result)).toMatch(/^MCP server "everything" is unavailable: .*\(reconnecting\)$/);
    everything = await startEverythingServer('streamableHttp', everythingPort);
    await serverState(app.url, 'everything', 'connected');
    expect(textOf(await client.callTool({ name: 'mcp_everything_echo', arguments: { message: 'back' } }))).toBe('Echo: back');
    await client.close();
  });
});
