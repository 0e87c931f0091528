import type { ChildProcess } from 'node:child_process';
import { McpServerUnavailableError } from '../../src/mcp-client/mcp-client.errors';
import { eventually } from '../support/eventually';
import { freePort } from '../support/free-port';
import {
  firstText,
  httpMcpServer,
  serverState,
  serversView,
  startMcpApp,
  toolsListed,
  type McpTestApp,
} from './support/mcp-app';
import { killProcess, startEverythingServer } from './support/mcp-servers';
import { SessionProxy } from './support/session-proxy';

const TOKEN_VARIABLE = 'MCP_TEST_HTTP_TOKEN';
let httpPort: number;
let ssePort: number;
let httpServer: ChildProcess;
let sseServer: ChildProcess;
let proxy: SessionProxy;
let target: McpTestApp;

beforeAll(async () => {
  [httpPort, ssePort] = [await freePort(), await freePort()];
  const proxyPort = await freePort();
  [httpServer, sseServer] = await Promise.all([
    startEverythingServer('streamableHttp', httpPort),
    startEverythingServer('sse', ssePort),
  ]);
  proxy = new SessionProxy(httpPort);
  await proxy.listen(proxyPort);
  target = await startMcpApp(
    `
[outbound]
allow_hosts = ["127.0.0.1:${httpPort}", "127.0.0.1:${ssePort}", "127.0.0.1:${proxyPort}"]
${httpMcpServer('ev-http', `http://127.0.0.1:${httpPort}/mcp`)}
${httpMcpServer('proxied', `http://127.0.0.1:${proxyPort}/mcp`, { extra: `headers = { Authorization = "Bearer \${${TOKEN_VARIABLE}}" }` })}
[[mcp_servers]]
name = "ev-sse"
[mcp_servers.transport]
type = "sse"
url = "http://127.0.0.1:${ssePort}/sse"
${httpMcpServer('metadata', 'http://169.254.169.254/mcp')}
${httpMcpServer('other-loopback', `http://127.0.0.2:${httpPort}/mcp`)}
`,
    { [TOKEN_VARIABLE]: 'token-from-the-environment' },
  );
});

afterAll(async () => {
  await target?.app.close();
  await proxy?.close();
  await Promise.all([httpServer, sseServer].filter(Boolean).map(killProcess));
});

describe('MCP servers over Streamable HTTP and SSE', () => {
  it('boots and is ready without waiting for any server', async () => {
    const view = await serversView(target.url);
    expect(view.connected.map((entry) => entry.name)).not.toContain('metadata');
    expect((await fetch(`${target.url}/readyz`)).status).toBe(200);
  });

  it('discovers and namespaces the tools over Streamable HTTP and SSE, and round-trips calls', async () => {
    await toolsListed(target.tools, ['mcp_ev_http_echo', 'mcp_ev_sse_echo', 'mcp_proxied_echo']);
    expect(firstText(await target.tools.call('mcp_ev_http_echo', { message: 'over http' }))).toBe('Echo: over http');
    expect(firstText(await target.tools.call('mcp_ev_sse_echo', { message: 'over sse' }))).toBe('Echo: over sse');
    const view = await serversView(target.url);
    expect(view.configured.find((entry) => entry.name === 'ev-http')?.status).toMatchObject({
      state: 'connected',
      era: 'legacy',
    });
    expect(view.connected.find((entry) => entry.name === 'ev-sse')?.tools).toContainEqual({
      name: 'mcp_ev_sse_get_sum',
      description: expect.stringMatching(/^\[MCP:ev-sse\] /),
    });
  });

  it('sends configured headers, with ${VAR} taken from the environment, and never shows their values', async () => {
    await toolsListed(target.tools, ['mcp_proxied_echo']);
    expect(proxy.requests.length).toBeGreaterThan(0);
    for (const { headers } of proxy.requests) expect(headers.authorization).toBe('Bearer token-from-the-environment');
    const view = await serversView(target.url);
    expect(view.configured.find((entry) => entry.name === 'proxied')?.transport).toEqual({
      type: 'http',
      url: expect.any(String),
      headers: { Authorization: '[redacted]' },
    });
    expect(JSON.stringify(view)).not.toContain('token-from-the-environment');
  });

  it('never reaches a cloud metadata address, nor a loopback address that is not allowlisted', async () => {
    const view = await serverState(target.url, 'metadata', 'retrying');
    expect(view.configured.find((entry) => entry.name === 'metadata')?.status.error).toMatch(
      /169\.254\.169\.254 is a cloud metadata endpoint/,
    );
    const loopback = (await serverState(target.url, 'other-loopback', 'retrying')).configured.find(
      (entry) => entry.name === 'other-loopback',
    );
    expect(loopback?.status.error).toMatch(/127\.0\.0\.2 is a loopback address/);
  });

  it('replaces a session the server no longer knows and retries the call once', async () => {
    await toolsListed(target.tools, ['mcp_proxied_echo']);
    const sessionsBefore = new Set(proxy.requests.map((request) => request.headers['mcp-session-id']));
    proxy.forgetSessions();
    expect(firstText(await target.tools.call('mcp_proxied_echo', { message: 'new session' }))).toBe(
      'Echo: new session',
    );
    expect(proxy.notFound).toBeGreaterThanOrEqual(1);
    const last = proxy.requests[proxy.requests.length - 1].headers['mcp-session-id'];
    expect(sessionsBefore.has(last)).toBe(false);
    await serverState(target.url, 'proxied', 'connected');
  });

  it('fails fast while a server is down, and reconnects once it is back', async () => {
    await toolsListed(target.tools, ['mcp_ev_http_echo']);
    await killProcess(httpServer);
    const started = Date.now();
    await expect(target.tools.call('mcp_ev_http_echo', { message: 'anyone?' })).rejects.toThrow(
      McpServerUnavailableError,
    );
    expect(Date.now() - started).toBeLessThan(2000);
    await expect(target.tools.call('mcp_ev_http_echo', { message: 'anyone?' })).rejects.toThrow(
      /MCP server "ev-http" is unavailable: .*reconnecting/,
    );
    expect(target.tools.list().map((tool) => tool.name)).not.toContain('mcp_ev_http_echo');

    httpServer = await startEverythingServer('streamableHttp', httpPort);
    await serverState(target.url, 'ev-http', 'connected');
    expect(firstText(await target.tools.call('mcp_ev_http_echo', { message: 'welcome back' }))).toBe(
      'Echo: welcome back',
    );
  });

  it('restarts through a stale session too: an SSE server killed and started again', async () => {
    await killProcess(sseServer);
    sseServer = await startEverythingServer('sse', ssePort);
    const answer = await eventually(
      () => target.tools.call('mcp_ev_sse_echo', { message: 'again' }).then(firstText, (error: Error) => error.message),
      (text) => text === 'Echo: again',
    );
    expect(answer).toBe('Echo: again');
  });
});
