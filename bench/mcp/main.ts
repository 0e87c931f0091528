/**
 * `bench:mcp`: what Switchboard's MCP face costs.
 * - `--mode proxy` (the default): server-everything's `echo` over stdio, called directly, through
 *   the reference proxies supergateway and mcp-proxy (stdio to stateful Streamable HTTP), through
 *   the v2 SDK's thinnest proxy (2026-07-28: the floor under `/mcp`), and through Switchboard's
 *   `/mcp` embedded and durable, each with a 2025-11-25 session and 2026-07-28 stateless; every row
 *   against mcp-proxy's at the same concurrency, and issue 30's targets. Rows: direct,
 *   supergateway, mcp-proxy, sdk-proxy-2026, embedded-2025, embedded-2026, durable-2025,
 *   durable-2026 (`--only` picks some).
 * - `--mode catalog`: the same `echo` through Switchboard on a generated upstream offering
 *   `--tools` tools each (default 1 and 500), 16 in flight unless `--concurrency` says otherwise:
 *   CPU per call must not depend on the catalog's size. Rows embedded-2025, embedded-2026 unless `--only`.
 * - `--mode tasks`: an agent called as an MCP task, create to result, beside a plain call of it.
 * Each measurement is warmed up for `--warmup` seconds first: V8 needs a few thousand calls before
 * the HTTP path (client and server) runs optimized code, and a long-running service is measured warm.
 * `--profile DIR` (proxy and catalog modes) writes a V8 CPU profile of each Switchboard process into
 * DIR, as in `bench:a2a`.
 * Usage: npm run bench:mcp -- [--mode proxy|catalog|tasks] [--duration 10] [--warmup 5]
 *   [--concurrency 1,16] [--only direct,mcp-proxy,embedded-2025] [--tools 1,500] [--poll-ms 10] [--profile DIR]
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureSwitchboardBuilt } from '../a2a/build';
import { positiveInteger } from '../a2a/cli-options';
import { runBench } from '../a2a/processes';
import { benchCatalogCost } from './catalog-cost';
import { ROW_NAMES, type RowName } from './gateway-rows';
import type { Timing } from './measure';
import { benchProxyOverhead } from './proxy-overhead';
import { benchTaskRoundTrip } from './task-round-trip';

const MODES = ['proxy', 'catalog', 'tasks'] as const;
type Mode = (typeof MODES)[number];
const DEFAULT_CONCURRENCY: Record<Mode, string> = { proxy: '1,16', catalog: '16', tasks: '1' };
const DEFAULT_ROWS: Record<Mode, string> = {
  proxy: ROW_NAMES.join(','),
  catalog: 'embedded-2025,embedded-2026',
  tasks: '',
};

const integers = (name: string, raw: string) => raw.split(',').map((value) => positiveInteger(name, value.trim()));

function rowNames(raw: string): RowName[] {
  const names = raw.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(ROW_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(`--only: unknown row ${unknown.join(', ')}; rows are ${ROW_NAMES.join(', ')}`);
  // In the table's order, whatever the order given.
  return ROW_NAMES.filter((name) => names.includes(name));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      mode: { type: 'string', default: 'proxy' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '5' },
      concurrency: { type: 'string' },
      only: { type: 'string' },
      tools: { type: 'string', default: '1,500' },
      'poll-ms': { type: 'string', default: '10' },
      profile: { type: 'string' },
    },
  });
  const mode = values.mode as Mode;
  if (!MODES.includes(mode)) throw new Error(`--mode is ${MODES.join(', ')}, not ${values.mode}`);
  const timing: Timing = {
    durationSecs: positiveInteger('duration', values.duration),
    warmUpSecs: positiveInteger('warmup', values.warmup),
  };
  const concurrencies = integers('concurrency', values.concurrency ?? DEFAULT_CONCURRENCY[mode]);
  console.log(
    `MCP bench, ${mode} mode: ${concurrencies.join(', ')} in flight, ${timing.warmUpSecs} s warm-up + ${timing.durationSecs} s each; Node ${process.version}, ${availableParallelism()} cores`,
  );
  await ensureSwitchboardBuilt();
  if (mode === 'tasks') return benchTaskRoundTrip(timing, concurrencies, positiveInteger('poll-ms', values['poll-ms']));
  const rows = rowNames(values.only ?? DEFAULT_ROWS[mode]);
  const profileDir = values.profile && resolve(values.profile);
  if (mode === 'proxy') return benchProxyOverhead(rows, timing, concurrencies, profileDir);
  return benchCatalogCost(rows, timing, concurrencies, integers('tools', values.tools), profileDir);
}

runBench(main);
