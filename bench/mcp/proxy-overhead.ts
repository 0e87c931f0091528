/**
 * MCP gateway overhead (issue 30): the same `tools/call` (server-everything's `echo`, over stdio)
 * made directly, through two thin reference proxies and the v2 SDK's own, and through Switchboard's
 * `/mcp` in each mode and era, at each concurrency. Each row is compared with mcp-proxy's at the
 * same concurrency, so that every run shows the ratio however busy the machine is, and checked
 * against the targets.
 */
import { EVERYTHING, measureRows, PROXY_VERSIONS, SWITCHBOARD_ROWS, type RowName } from './gateway-rows';
import {
  cpuMsPerCall,
  MEASURED_HEADER,
  measuredCells,
  printTable,
  requestsPerSecond,
  verdict,
  type Timing,
} from './measure';

const BASELINE: RowName = 'mcp-proxy';
const FLOOR: RowName = 'direct';
/** What the official v2 SDK alone costs as a proxy: the part of a 2026-07-28 call no gateway built on it avoids. */
const SDK_FLOOR: RowName = 'sdk-proxy-2026';
/** The targets: throughput and CPU against mcp-proxy under load, latency added over stdio alone. */
const UNDER_LOAD = 16;
const ALONE = 1;
const MAX_P50_ADDED_MS = 1;

const ratio = (value: number, baseline: number | undefined) =>
  baseline === undefined ? '-' : `${(value / baseline).toFixed(2)}x`;

export async function benchProxyOverhead(
  rows: RowName[],
  timing: Timing,
  concurrencies: number[],
  profileDir?: string,
): Promise<void> {
  console.log(
    `reference proxies: ${PROXY_VERSIONS} (stateful Streamable HTTP); 2025-11-25 rows use the 1.x SDK client with a session, 2026-07-28 rows the v2 client`,
  );
  const results = await measureRows(rows, EVERYTHING, timing, concurrencies, profileDir);
  const find = (row: RowName, concurrency: number) =>
    results.find((r) => r.name === row && r.concurrency === concurrency);

  const byConcurrency = concurrencies.flatMap((c) => results.filter((r) => r.concurrency === c));
  printTable(
    ['row', ...MEASURED_HEADER, `req/s vs ${BASELINE}`, `CPU/call vs ${BASELINE}`],
    byConcurrency.map((r) => {
      const baseline = find(BASELINE, r.concurrency);
      return [
        r.name,
        ...measuredCells(r),
        ratio(requestsPerSecond(r), baseline && requestsPerSecond(baseline)),
        ratio(cpuMsPerCall(r), baseline && cpuMsPerCall(baseline)),
      ];
    }),
  );
  console.log(
    "CPU: the gateway's processes and their children (durable: API + worker + the stdio server; direct: the stdio server alone); of it children: the stdio server's part. Peak RSS: the gateway's processes alone (direct: the stdio server). Client CPU: the bench's own process, where the client library makes the calls on the same cores.",
  );

  const floor = find(FLOOR, ALONE);
  if (floor) {
    console.log(`\np50 added over direct stdio, ${ALONE} in flight:`);
    for (const r of results.filter((r) => r.concurrency === ALONE && r.name !== FLOOR))
      console.log(`  ${r.name}: +${(r.p50 - floor.p50).toFixed(2)} ms`);
  }

  const sdkFloors = results.filter((r) => r.name === SDK_FLOOR);
  if (sdkFloors.length > 0)
    console.log(`\nCPU per call over ${SDK_FLOOR}'s (what Switchboard adds to the SDK it builds on):`);
  for (const sdk of sdkFloors) {
    for (const r of results.filter(
      (r) => r.concurrency === sdk.concurrency && SWITCHBOARD_ROWS.includes(r.name as RowName),
    )) {
      console.log(
        `  ${r.name}, ${r.concurrency} in flight: +${(cpuMsPerCall(r) - cpuMsPerCall(sdk)).toFixed(3)} ms (${ratio(cpuMsPerCall(r), cpuMsPerCall(sdk))})`,
      );
    }
  }

  const switchboardRows = SWITCHBOARD_ROWS.filter((row) => rows.includes(row));
  if (switchboardRows.length > 0) console.log('\ntargets (issue 30):');
  for (const row of switchboardRows) {
    const loaded = find(row, UNDER_LOAD);
    const baseline = find(BASELINE, UNDER_LOAD);
    if (loaded && baseline) {
      const throughput = requestsPerSecond(loaded) / requestsPerSecond(baseline);
      const cpu = cpuMsPerCall(loaded) / cpuMsPerCall(baseline);
      console.log(
        `  ${row}, ${UNDER_LOAD} in flight: req/s ${throughput.toFixed(2)}x ${BASELINE} (>= 1.0x): ${verdict(throughput >= 1)}; CPU/call ${cpu.toFixed(2)}x ${BASELINE} (<= 1.0x): ${verdict(cpu <= 1)}`,
      );
    } else
      console.log(
        `  ${row}, ${UNDER_LOAD} in flight: not measured (needs ${BASELINE} and --concurrency ${UNDER_LOAD})`,
      );
    const alone = find(row, ALONE);
    if (alone && floor) {
      const added = alone.p50 - floor.p50;
      console.log(
        `  ${row}, ${ALONE} in flight: p50 added over ${FLOOR} ${added.toFixed(2)} ms (< ${MAX_P50_ADDED_MS} ms): ${verdict(added < MAX_P50_ADDED_MS)}`,
      );
    } else console.log(`  ${row}, ${ALONE} in flight: not measured (needs ${FLOOR} and --concurrency ${ALONE})`);
  }
}
