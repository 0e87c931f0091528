/**
 * `bench:mcp`: what Switchboard's MCP face costs. `--mode proxy` (the default): a connected MCP
 * server's tool called directly and through `/mcp`. `--mode tasks`: an agent called as an MCP
 * task, create to result, beside a plain call of it. Each path is warmed up for `--warmup`
 * seconds first: V8 needs a few thousand calls before the HTTP path (client and server) runs
 * optimized code, and a long-running service is measured warm.
 * Usage: npm run bench:mcp -- [--mode proxy|tasks] [--duration 10] [--warmup 10] [--concurrency 1] [--poll-ms 10]
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { ensureSwitchboardBuilt } from '../a2a/build';
import { runBench } from '../a2a/processes';
import type { LoadOptions } from './measure';
import { benchProxyOverhead } from './proxy-overhead';
import { benchTaskRoundTrip } from './task-round-trip';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      mode: { type: 'string', default: 'proxy' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '10' },
      concurrency: { type: 'string', default: '1' },
      'poll-ms': { type: 'string', default: '10' },
    },
  });
  if (values.mode !== 'proxy' && values.mode !== 'tasks') throw new Error(`--mode is proxy or tasks, not ${values.mode}`);
  const load: LoadOptions = { durationSecs: Number(values.duration), warmUpSecs: Number(values.warmup), concurrency: Number(values.concurrency) };
  const what = values.mode === 'proxy' ? 'tools/call echo, direct and proxied' : `agent as an MCP task (server pollInterval ${values['poll-ms']} ms) and plain`;
  console.log(`MCP bench: ${what}, ${load.concurrency} in flight, ${load.warmUpSecs} s warm-up + ${load.durationSecs} s each; Node ${process.version}, ${availableParallelism()} cores`);
  await ensureSwitchboardBuilt();
  if (values.mode === 'proxy') await benchProxyOverhead(load);
  else await benchTaskRoundTrip(load, Number(values['poll-ms']));
}

runBench(main);
