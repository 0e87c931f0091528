/**
 * The clients of `bench:mcp`, each checked to speak what its row claims: 2025-11-25 with a session
 * (the 1.x SDK, for Switchboard and the reference proxies alike), 2026-07-28 stateless (the v2
 * client, negotiating), and stdio straight to the server.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { expectText } from './measure';

/** What the bench needs of either SDK's client. */
export interface ToolClient {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

/** How a row reaches an HTTP MCP endpoint. */
export type HttpClientKind = 'session-2025' | 'stateless-2026';

const CLIENT_INFO = { name: 'bench-mcp', version: '1.0.0' };
const WAIT_FOR_TOOL_MS = 30_000;

export async function connectHttp(
  kind: HttpClientKind,
  url: URL,
  headers: Record<string, string>,
): Promise<ToolClient> {
  return kind === 'session-2025' ? connectSession(url, headers) : connectStateless(url, headers);
}

/**
 * POSTs without the transports' abort signals, which cost the bench's client (not the gateway) more
 * with every call. The 1.x transport gives every POST the same signal, and undici keeps a listener
 * on it per request until the request is garbage-collected: thousands at 16 in flight, and past
 * 1,500 a warning printed on every request. The v2 transport combines its lifelong signal with each
 * request's (`AbortSignal.any`), and each combined signal undici listens to stays in the lifelong
 * one's set (nodejs/node#64476): a third of the client's CPU after 20 s. A client is closed only
 * once its calls have ended, so a POST has nothing to abort.
 */
const postWithoutSharedSignal: typeof fetch = (url, init) =>
  fetch(url, init?.method === 'POST' ? { ...init, signal: undefined } : init);

async function connectSession(url: URL, headers: Record<string, string>): Promise<ToolClient> {
  const client = new ClientV1(CLIENT_INFO);
  const transport = new TransportV1(url, { requestInit: { headers }, fetch: postWithoutSharedSignal });
  await client.connect(transport);
  if (transport.protocolVersion !== '2025-11-25' || !transport.sessionId) {
    await client.close();
    throw new Error(
      `${url}: expected a 2025-11-25 session, got version ${transport.protocolVersion}, session id ${transport.sessionId}`,
    );
  }
  return client;
}

async function connectStateless(url: URL, headers: Record<string, string>): Promise<ToolClient> {
  const client = new Client(CLIENT_INFO, { versionNegotiation: { mode: 'auto' } });
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers },
    fetch: postWithoutSharedSignal,
  });
  await client.connect(transport);
  if (transport.protocolVersion !== '2026-07-28' || transport.sessionId) {
    await client.close();
    throw new Error(
      `${url}: expected 2026-07-28 without a session, got version ${transport.protocolVersion}, session id ${transport.sessionId}`,
    );
  }
  return client;
}

/** A 1.x client on a stdio server it starts itself; `pid` is the server's. */
export async function connectStdio(command: string, args: string[]): Promise<{ client: ToolClient; pid: number }> {
  const client = new ClientV1(CLIENT_INFO);
  const transport = new StdioTransportV1({ command, args, stderr: 'ignore' });
  await client.connect(transport);
  return { client, pid: transport.pid! };
}

/** One `echo` call through `client` as `tool`, checking that the answer is its own message's. */
export function echoCall(client: ToolClient, tool: string): () => Promise<void> {
  let sent = 0;
  return async () => {
    // Taken before the call: with several calls in flight, a shared counter has moved on by the time the answer comes.
    const message = `m${++sent}`;
    expectText(await client.callTool({ name: tool, arguments: { message } }), `Echo: ${message}`);
  };
}

/** Retries `call` until it succeeds: a gateway connects to its upstream after it reports ready. */
export async function waitUntilCallable(call: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + WAIT_FOR_TOOL_MS;
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(100);
    }
  }
}
