/**
 * Timing of MCP calls for `bench:mcp`: warmed up, then measured for a while from a few loops at
 * once, with the CPU and memory of the processes that served them.
 */
import { cpuSeconds, descendantPids, sampleUsage, type ServerProcess } from '../a2a/processes';
import { printTable as printColumns } from '../a2a/report';

/** A process whose cost is counted: its CPU with that of its descendants (a stdio MCP server), its own RSS. */
export type Watched = Pick<ServerProcess, 'name' | 'pid'>;

export interface Measured {
  name: string;
  concurrency: number;
  calls: number;
  seconds: number;
  p50: number;
  p99: number;
  /** CPU seconds of the watched processes and their descendants while measured. */
  cpuSeconds: number;
  /** The descendants' part of it (a gateway's stdio server). */
  childCpuSeconds: number;
  /** Peak RSS of the watched processes (not their descendants), summed, in MB. */
  peakRssMb: number;
  /**
   * CPU seconds of this process (the client library making the calls) while measured: it shares
   * the cores with the gateway, so a client that costs more leaves the gateway fewer calls to serve.
   */
  clientCpuSeconds: number;
}

export interface Timing {
  durationSecs: number;
  warmUpSecs: number;
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

/** CPU seconds used so far by the processes' descendants, by pid. */
function descendantsCpu(watched: Watched[]): Map<number, number> {
  return new Map(watched.flatMap(({ pid }) => descendantPids(pid)).map((pid) => [pid, cpuSeconds(pid)]));
}

const sum = (values: Iterable<number>) => [...values].reduce((total, value) => total + value, 0);

/** Warms `call` up, then measures it at `concurrency` calls in flight, with the usage of `watched`. */
export async function measure(
  name: string,
  call: () => Promise<unknown>,
  { durationSecs, warmUpSecs }: Timing,
  concurrency: number,
  watched: Watched[],
): Promise<Measured> {
  await callFor(call, warmUpSecs, concurrency);
  const watchedUsage = sampleUsage(watched);
  const childrenBefore = descendantsCpu(watched);
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  const latencies = await callFor(call, durationSecs, concurrency);
  const seconds = (performance.now() - started) / 1000;
  const client = process.cpuUsage(clientBefore);
  // A child started while measured counts from zero; one that ended while measured is lost (none should).
  const childCpuSeconds = sum([...descendantsCpu(watched)].map(([pid, now]) => now - (childrenBefore.get(pid) ?? 0)));
  const usage = [...watchedUsage().values()];
  latencies.sort((a, b) => a - b);
  return {
    name,
    concurrency,
    calls: latencies.length,
    seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpuSeconds: sum(usage.map((u) => u.cpuSeconds)) + childCpuSeconds,
    childCpuSeconds,
    peakRssMb: sum(usage.map((u) => u.peakRssMb)),
    clientCpuSeconds: (client.user + client.system) / 1e6,
  };
}

export const requestsPerSecond = (m: Measured): number => m.calls / m.seconds;
export const cpuMsPerCall = (m: Measured): number => (1000 * m.cpuSeconds) / m.calls;

/** The cells every table shows of a measurement: in flight, req/s, p50, p99, CPU per call (and its children's part), peak RSS, the client's CPU per call. */
export function measuredCells(m: Measured): string[] {
  const perCall = (cpuSeconds: number) => ((1000 * cpuSeconds) / m.calls).toFixed(3);
  return [
    String(m.concurrency),
    requestsPerSecond(m).toFixed(0),
    m.p50.toFixed(2),
    m.p99.toFixed(2),
    cpuMsPerCall(m).toFixed(3),
    perCall(m.childCpuSeconds),
    m.peakRssMb.toFixed(0),
    perCall(m.clientCpuSeconds),
  ];
}
export const MEASURED_HEADER = [
  'in flight',
  'req/s',
  'p50 ms',
  'p99 ms',
  'CPU ms/call',
  'of it children',
  'peak RSS MB',
  'client CPU ms/call',
];

/** A table after a blank line, below the progress lines. */
export function printTable(header: string[], rows: string[][]): void {
  console.log('');
  printColumns(header, rows);
}

export const verdict = (met: boolean): string => (met ? 'met' : 'MISSED');

/** Throws unless a tool result's first text block is `text`. */
export function expectText(result: unknown, text: string): void {
  const first = (result as { content?: { type: string; text?: string }[] }).content?.[0];
  if (first?.text !== text) throw new Error(`unexpected tool result: ${JSON.stringify(result).slice(0, 300)}`);
}
