/**
 * Whether a `tools/call` through `/mcp` costs more when the upstream offers more tools (issue 30):
 * the same `echo` on a generated stdio server (generated-upstream.mjs) offering 1 tool, then N, at
 * each concurrency. Prints CPU per call at the largest catalog over the smallest; target: within 10%.
 */
import { join } from 'node:path';
import { measureRows, type RowName, type StdioServer } from './gateway-rows';
import {
  cpuMsPerCall,
  MEASURED_HEADER,
  measuredCells,
  printTable,
  verdict,
  type Measured,
  type Timing,
} from './measure';

const MAX_CPU_DRIFT = 0.1;

function generatedUpstream(tools: number): StdioServer {
  return {
    name: 'catalog',
    command: process.execPath,
    args: [join(__dirname, 'generated-upstream.mjs'), String(tools)],
  };
}

export async function benchCatalogCost(
  rows: RowName[],
  timing: Timing,
  concurrencies: number[],
  toolCounts: number[],
  profileDir?: string,
): Promise<void> {
  const results: { tools: number; measured: Measured }[] = [];
  for (const tools of toolCounts) {
    console.log(`upstream with ${tools} tools:`);
    for (const measured of await measureRows(rows, generatedUpstream(tools), timing, concurrencies, profileDir))
      results.push({ tools, measured });
  }
  printTable(
    ['row', 'tools', ...MEASURED_HEADER],
    results.map(({ tools, measured }) => [measured.name, String(tools), ...measuredCells(measured)]),
  );

  const fewest = Math.min(...toolCounts);
  const most = Math.max(...toolCounts);
  if (fewest === most) return;
  console.log(`\ntarget (issue 30): CPU/call with ${most} tools within ${MAX_CPU_DRIFT * 100}% of that with ${fewest}`);
  for (const row of rows) {
    for (const concurrency of concurrencies) {
      const at = (tools: number) =>
        results.find((r) => r.tools === tools && r.measured.name === row && r.measured.concurrency === concurrency)!
          .measured;
      const drift = cpuMsPerCall(at(most)) / cpuMsPerCall(at(fewest));
      console.log(
        `  ${row}, ${concurrency} in flight: ${cpuMsPerCall(at(most)).toFixed(3)} / ${cpuMsPerCall(at(fewest)).toFixed(3)} ms = ${drift.toFixed(2)}x: ${verdict(Math.abs(drift - 1) <= MAX_CPU_DRIFT)}`,
      );
    }
  }
}
