/** Timing of MCP calls for `bench:mcp`: warmed up, then measured for a while from a few loops at once. */
import { sampleUsage, type ProcessUsage, type ServerProcess } from '../a2a/processes';

export interface Measured {
  name: string;
  calls: number;
  seconds: number;
  p50: number;
  p99: number;
  /** Usage of the watched process during the measured calls. */
  usage?: ProcessUsage;
}

export interface LoadOptions {
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
export async function measure(name: string, call: () => Promise<unknown>, { durationSecs, warmUpSecs, concurrency }: LoadOptions, watched?: ServerProcess): Promise<Measured> {
  await callFor(call, warmUpSecs, concurrency);
  const usageSoFar = watched && sampleUsage([watched]);
  const started = performance.now();
  const latencies = await callFor(call, durationSecs, concurrency);
  const seconds = (performance.now() - started) / 1000;
  const usage = usageSoFar?.().get(watched!.name);
  latencies.sort((a, b) => a - b);
  return { name, calls: latencies.length, seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), usage };
}

/** One row per path: calls, req/s, p50 and p99. */
export function printTable(results: Measured[]): void {
  const width = Math.max(4, ...results.map(({ name }) => name.length));
  console.log('');
  console.log(['path'.padEnd(width), 'calls', 'req/s', 'p50 ms', 'p99 ms'].join('  '));
  for (const r of results) {
    console.log([r.name.padEnd(width), String(r.calls).padStart(5), (r.calls / r.seconds).toFixed(0).padStart(5), r.p50.toFixed(2).padStart(6), r.p99.toFixed(2).padStart(6)].join('  '));
  }
}

/** Throws unless a tool result's first text block is `text`. */
export function expectText(result: unknown, text: string): void {
  const first = (result as { content?: { type: string; text?: string }[] }).content?.[0];
  if (first?.text !== text) throw new Error(`unexpected tool result: ${JSON.stringify(result).slice(0, 300)}`);
}
