/**
 * MCP overhead: the same `tools/call` (server-everything's `echo`, over stdio) made directly with
 * the SDK client, and through Switchboard's `/mcp` (Streamable HTTP, v2 client, 2026-07-28) as
 * `mcp_everything_echo`. Prints what Switchboard adds, and its CPU time per call and peak RSS.
 * Target: added p50 < 2 ms.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../test/support/free-port';
import { SWITCHBOARD_BIN } from '../a2a/build';
import { startNode, waitUntilReady } from '../a2a/processes';
import { expectText, measure, printTable, type LoadOptions } from './measure';

const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

export async function benchProxyOverhead(load: LoadOptions): Promise<void> {
  const direct = new Client({ name: 'bench-direct', version: '1.0.0' });
  await direct.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' }));

  const dir = mkdtempSync(join(tmpdir(), 'bench-mcp-'));
  const config = join(dir, 'switchboard.toml');
  writeFileSync(config, `[[mcp_servers]]\nname = "everything"\n[mcp_servers.transport]\ntype = "stdio"\ncommand = "${process.execPath}"\nargs = ${JSON.stringify([EVERYTHING, 'stdio'])}\n`);
  const port = await freePort();
  const server = startNode('switchboard', [SWITCHBOARD_BIN, 'serve'], { HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', SWITCHBOARD_CONFIG: config, SWITCHBOARD_RATE_LIMIT: '100000000' }, dir);
  try {
    await waitUntilReady(`http://127.0.0.1:${port}/readyz`, [server]);
    const proxied = new Client({ name: 'bench-switchboard', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await proxied.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
    // The MCP connection is made in the background after boot.
    for (let tries = 0; !(await proxied.listTools()).tools.some((tool) => tool.name === 'mcp_everything_echo'); tries++) {
      if (tries > 100) throw new Error('Switchboard never listed mcp_everything_echo');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    let n = 0;
    const viaDirect = () => direct.callTool({ name: 'echo', arguments: { message: `m${++n}` } }).then((r) => expectText(r, `Echo: m${n}`));
    const viaSwitchboard = () => {
      const text = `m${++n}`;
      return proxied.callTool({ name: 'mcp_everything_echo', arguments: { message: text } }).then((r) => expectText(r, `Echo: ${text}`));
    };
    const results = [await measure('direct (stdio)', viaDirect, load), await measure('through Switchboard /mcp', viaSwitchboard, load, server)];
    printTable(results);
    const added50 = results[1].p50 - results[0].p50;
    const added99 = results[1].p99 - results[0].p99;
    console.log(`\nadded by Switchboard: p50 ${added50.toFixed(2)} ms (target < 2 ms: ${added50 < 2 ? 'met' : 'MISSED'}), p99 ${added99.toFixed(2)} ms`);
    const usage = results[1].usage!;
    console.log(`Switchboard process: ${((1000 * usage.cpuSeconds) / results[1].calls).toFixed(2)} ms CPU per call, peak RSS ${usage.peakRssMb.toFixed(0)} MB`);
    await proxied.close();
  } finally {
    await direct.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
