/**
 * The paths a `tools/call` of `echo` takes in `bench:mcp`, one per row: straight to a stdio MCP
 * server, through a thin reference proxy (stdio to stateful Streamable HTTP), through the v2 SDK's
 * own thinnest proxy (the floor under `/mcp`), or through Switchboard's `/mcp`, embedded or
 * durable, in each protocol era. A row starts what it needs, gives the call and the processes whose
 * cost is the gateway's, and stops it all once measured.
 */
import { join } from 'node:path';
import { compileBenchServer, ROOT } from '../a2a/build';
import { registerCleanup, startNode, waitUntilReady, type ServerProcess } from '../a2a/processes';
import { profilingArgs, scratchDir, startDurable, startEmbedded, type RunningServer } from '../a2a/servers';
import { freePort } from '../../test/support/free-port';
import { connectHttp, connectStdio, echoCall, waitUntilCallable, type HttpClientKind } from './mcp-clients';
import { measure, type Measured, type Timing, type Watched } from './measure';

/** A stdio MCP server offering `echo`; `name` is its [[mcp_servers]] name in Switchboard. */
export interface StdioServer {
  name: string;
  command: string;
  args: string[];
}

export const EVERYTHING: StdioServer = {
  name: 'everything',
  command: process.execPath,
  args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
};

export const ROW_NAMES = [
  'direct',
  'supergateway',
  'mcp-proxy',
  'sdk-proxy-2026',
  'embedded-2025',
  'embedded-2026',
  'durable-2025',
  'durable-2026',
] as const;
export type RowName = (typeof ROW_NAMES)[number];
export const SWITCHBOARD_ROWS: RowName[] = ['embedded-2025', 'embedded-2026', 'durable-2025', 'durable-2026'];

export interface RunningRow {
  call: () => Promise<void>;
  /** The gateway's processes (the stdio server's for `direct`): its cost. */
  watched: Watched[];
  stop(): Promise<void>;
}

const SUPERGATEWAY_BIN = require.resolve('supergateway/dist/index.js');
const MCP_PROXY_BIN = require.resolve('mcp-proxy/dist/bin/mcp-proxy.mjs');
/** The reference proxies' versions, for the report. */
export const PROXY_VERSIONS = `supergateway ${require('supergateway/package.json').version}, mcp-proxy ${require('mcp-proxy/package.json').version}`;

/**
 * Measures each row at each concurrency, one row's gateway running at a time; with `profileDir`,
 * Switchboard's processes write V8 CPU profiles there when they exit.
 */
export async function measureRows(
  rows: RowName[],
  upstream: StdioServer,
  timing: Timing,
  concurrencies: number[],
  profileDir?: string,
): Promise<Measured[]> {
  const results: Measured[] = [];
  for (const row of rows) {
    console.log(`${row}: measuring at ${concurrencies.join(', ')} in flight`);
    const running = await startRow(row, upstream, profilingArgs(profileDir));
    try {
      for (const concurrency of concurrencies)
        results.push(await measure(row, running.call, timing, concurrency, running.watched));
    } finally {
      await running.stop();
    }
  }
  return results;
}

function startRow(name: RowName, upstream: StdioServer, nodeArgs: string[]): Promise<RunningRow> {
  const embedded = () => startEmbedded(nodeArgs, switchboardConfig(upstream));
  const durable = () => startDurable(nodeArgs, { apis: 1, workers: 1, config: switchboardConfig(upstream) });
  const starters: Record<RowName, () => Promise<RunningRow>> = {
    direct: () => startDirect(upstream),
    supergateway: () => startSupergateway(upstream),
    'mcp-proxy': () => startMcpProxy(upstream),
    'sdk-proxy-2026': () => startSdkProxy(upstream),
    'embedded-2025': () => startSwitchboard(embedded(), upstream, 'session-2025'),
    'embedded-2026': () => startSwitchboard(embedded(), upstream, 'stateless-2026'),
    'durable-2025': () => startSwitchboard(durable(), upstream, 'session-2025'),
    'durable-2026': () => startSwitchboard(durable(), upstream, 'stateless-2026'),
  };
  return starters[name]();
}

async function startDirect(upstream: StdioServer): Promise<RunningRow> {
  const { client, pid } = await connectStdio(upstream.command, upstream.args);
  return {
    call: echoCall(client, 'echo'),
    watched: [{ name: 'stdio server', pid }],
    stop: registerCleanup(() => client.close()),
  };
}

/** A single-quoted word for `sh -c`: supergateway takes its stdio server as one shell command. */
const shellWord = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

async function startSupergateway(upstream: StdioServer): Promise<RunningRow> {
  const port = await freePort();
  const stdio = [upstream.command, ...upstream.args].map(shellWord).join(' ');
  const args = [
    '--stdio',
    stdio,
    '--outputTransport',
    'streamableHttp',
    '--stateful',
    '--port',
    String(port),
    '--logLevel',
    'none',
    '--healthEndpoint',
    '/healthz',
  ];
  const gateway = startNode('supergateway', [SUPERGATEWAY_BIN, ...args], {}, ROOT);
  return startProxy(
    gateway,
    () => gateway.stop(),
    `http://127.0.0.1:${port}/healthz`,
    new URL(`http://127.0.0.1:${port}/mcp`),
  );
}

async function startMcpProxy(upstream: StdioServer): Promise<RunningRow> {
  const port = await freePort();
  const gateway = startNode(
    'mcp-proxy',
    [MCP_PROXY_BIN, '--host', '127.0.0.1', '--port', String(port), '--', upstream.command, ...upstream.args],
    {},
    ROOT,
  );
  return startProxy(
    gateway,
    () => gateway.stop(),
    `http://127.0.0.1:${port}/ping`,
    new URL(`http://127.0.0.1:${port}/mcp`),
  );
}

/** The v2 SDK's proxy (sdk-proxy.ts), compiled to JavaScript; it serves 2026-07-28 clients without a session. */
async function startSdkProxy(upstream: StdioServer): Promise<RunningRow> {
  const dir = scratchDir('sdk-proxy');
  const port = await freePort();
  const entry = compileBenchServer('bench/mcp/sdk-proxy.ts', dir.path);
  const gateway = startNode(
    'sdk-proxy',
    [entry, String(port), '--', upstream.command, ...upstream.args],
    { NODE_PATH: join(ROOT, 'node_modules') },
    ROOT,
  );
  const stop = async () => {
    await gateway.stop();
    await dir.remove();
  };
  return startProxy(
    gateway,
    stop,
    `http://127.0.0.1:${port}/ready`,
    new URL(`http://127.0.0.1:${port}/mcp`),
    'stateless-2026',
  );
}

/** A reference proxy, once ready, with a client of `kind` on it; the tool keeps its upstream name. */
async function startProxy(
  gateway: ServerProcess,
  stop: () => Promise<void>,
  readyUrl: string,
  mcpUrl: URL,
  kind: HttpClientKind = 'session-2025',
): Promise<RunningRow> {
  const stopGateway = registerCleanup(stop);
  try {
    await waitUntilReady(readyUrl, [gateway]);
    return await connectThrough(mcpUrl, {}, 'echo', kind, [gateway], stopGateway);
  } catch (error) {
    await stopGateway();
    throw error;
  }
}

function switchboardConfig(upstream: StdioServer): string {
  return `[[mcp_servers]]\nname = "${upstream.name}"\n[mcp_servers.transport]\ntype = "stdio"\ncommand = ${JSON.stringify(upstream.command)}\nargs = ${JSON.stringify(upstream.args)}\n`;
}

/** Switchboard (whose API process makes the stdio connection) once started; every one of its processes is watched. */
async function startSwitchboard(
  starting: Promise<RunningServer>,
  upstream: StdioServer,
  client: HttpClientKind,
): Promise<RunningRow> {
  const server = await starting;
  try {
    return await connectThrough(
      new URL(`${server.baseUrl}/mcp`),
      server.headers,
      `mcp_${upstream.name}_echo`,
      client,
      server.processes,
      server.stop,
    );
  } catch (error) {
    await server.stop();
    throw error;
  }
}

async function connectThrough(
  url: URL,
  headers: Record<string, string>,
  tool: string,
  kind: HttpClientKind,
  gateway: ServerProcess[],
  stopGateway: () => Promise<void>,
): Promise<RunningRow> {
  const client = await connectHttp(kind, url, headers);
  const call = echoCall(client, tool);
  const stop = registerCleanup(async () => {
    await client.close();
    await stopGateway();
  });
  await waitUntilCallable(call).catch(async (error) => {
    await stop();
    throw error;
  });
  return { call, watched: gateway, stop };
}
