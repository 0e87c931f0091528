/**
 * MCP overhead: the same `tools/call` (server-everything's `echo`, over stdio) made directly with
 * the SDK client, and through Switchboard's `/mcp` (Streamable HTTP, v2 client, 2026-07-28) as
 * `mcp_everything_echo`, in one run. Prints latency p50/p99 and req/s of each, what Switchboard
 * adds, and Switchboard's CPU time per call and peak RSS. Target: added p50 < 2 ms.
 * Each path is warmed up for `--warmup` seconds first: V8 needs a few thousand calls before the
 * HTTP path (client and server) runs optimized code, and a long-running service is measured warm.
 * Usage: npm run bench:mcp -- [--duration 10] [--warmup 10] [--concurrency 1]
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../../test/support/free-port';
import { ensureSwitchboardBuilt } from '../a2a/build';
import { ProcessUsage, sampleUsage, ServerProcess, shutdown, startNode, waitUntilReady } from '../a2a/processes';

const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const SWITCHBOARD_BIN = join(__dirname, '../../bin/switchboard.js');

interface Measured {
  name: string;
  calls: number;
  seconds: number;
  p50: number;
  p99: number;
  /** Usage of the watched process during the measured calls. */
  usage?: ProcessUsage;
}

interface LoadOptions {
  durationSecs: number;
  warmUpSecs: number;
  concurrency: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Calls `call` from `concurrency` loops for `durationSecs`; latencies in ms. */
async function callFor(call: () => Promise<unknown>, durationSecs: number, concurrency: number): Promise<number[]> {
  const latencies: number[] = [];
  const deadline = performance.now() + durationSecs * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const before = performance.now();
        await call();
        latencies.push(performance.now() - before);
      }
    }),
  );
  return latencies;
}

/** Warms `call` up, then measures it; with `watched`, also that process's CPU time and peak RSS while measured. */
async function measure(name: string, call: () => Promise<unknown>, { durationSecs, warmUpSecs, concurrency }: LoadOptions, watched?: ServerProcess): Promise<Measured> {
  await callFor(call, warmUpSecs, concurrency);
  const usageSoFar = watched && sampleUsage([watched]);
  const started = performance.now();
  const latencies = await callFor(call, durationSecs, concurrency);
  const seconds = (performance.now() - started) / 1000;
  const usage = usageSoFar?.().get(watched!.name);
  latencies.sort((a, b) => a - b);
  return { name, calls: latencies.length, seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), usage };
}

function echoed(result: unknown, text: string): void {
  const first = (result as { content?: { type: string; text?: string }[] }).content?.[0];
  if (first?.text !== `Echo: ${text}`) throw new Error(`unexpected tool result: ${JSON.stringify(result).slice(0, 300)}`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { duration: { type: 'string', default: '10' }, warmup: { type: 'string', default: '10' }, concurrency: { type: 'string', default: '1' } },
  });
  const load: LoadOptions = { durationSecs: Number(values.duration), warmUpSecs: Number(values.warmup), concurrency: Number(values.concurrency) };
  console.log(
    `MCP bench: tools/call echo, ${load.concurrency} in flight, ${load.warmUpSecs} s warm-up + ${load.durationSecs} s each; Node ${process.version}, ${availableParallelism()} cores`,
  );
  await ensureSwitchboardBuilt();

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
    const viaDirect = () => direct.callTool({ name: 'echo', arguments: { message: `m${++n}` } }).then((r) => echoed(r, `m${n}`));
    const viaSwitchboard = () => {
      const text = `m${++n}`;
      return proxied.callTool({ name: 'mcp_everything_echo', arguments: { message: text } }).then((r) => echoed(r, text));
    };
    const results = [await measure('direct (stdio)', viaDirect, load), await measure('through Switchboard /mcp', viaSwitchboard, load, server)];
    console.log('');
    console.log(['path'.padEnd(26), 'calls', 'req/s', 'p50 ms', 'p99 ms'].join('  '));
    for (const r of results) {
      console.log([r.name.padEnd(26), String(r.calls).padStart(5), (r.calls / r.seconds).toFixed(0).padStart(5), r.p50.toFixed(2).padStart(6), r.p99.toFixed(2).padStart(6)].join('  '));
    }
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

main()
  .catch((error: Error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(shutdown);
