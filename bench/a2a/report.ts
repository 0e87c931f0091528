/**
 * The bench's table and its targets. A run with errors keeps its figures but never meets a target,
 * and a server that failed to start or answered wrongly has a row that says so.
 */
import { errorCount, type LoadResult } from './load';
import type { ProcessUsage } from './processes';
import type { ServerName } from './servers';

export interface Outcome {
  server: ServerName;
  /** The load's connections; unset when the server failed before any load. */
  connections?: number;
  result?: LoadResult;
  /** Peak RSS and CPU time of each of the server's processes during the load. */
  usage?: Map<string, ProcessUsage>;
  /** Why the server was not measured (did not start, answered wrongly). */
  failure?: string;
}

/** Prints `rows` under `header`, each column as wide as its widest cell. */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  for (const row of [header, ...rows])
    console.log(
      row
        .map((cell, column) => cell.padEnd(widths[column]))
        .join('  ')
        .trimEnd(),
    );
}

/** A total over the server's processes, itemized when there are several (`441.4 (api 201.1 + worker 240.3)`). */
function perProcessCell(
  usage: Map<string, ProcessUsage>,
  value: (usage: ProcessUsage) => number,
  digits: number,
): string {
  const total = [...usage.values()].reduce((sum, u) => sum + value(u), 0).toFixed(digits);
  if (usage.size === 1) return total;
  return `${total} (${[...usage].map(([name, u]) => `${name.split(' ').slice(1).join(' ')} ${value(u).toFixed(digits)}`).join(' + ')})`;
}

function header(streaming: boolean): string[] {
  const latencies = streaming
    ? ['first event p50 ms', 'first event p99 ms', 'end p50 ms', 'end p99 ms']
    : ['p50 ms', 'p99 ms'];
  return ['server', 'connections', 'req/s (mean)', ...latencies, 'errors', 'peak RSS MB', 'CPU ms/req', ''];
}

function row({ server, connections, result, usage }: Outcome, columns: number): string[] {
  const connectionsCell = connections === undefined ? '-' : String(connections);
  if (!result) return [server, connectionsCell, 'FAILED', ...Array<string>(columns - 4).fill('-'), 'see below'];
  const errors = errorCount(result);
  return [
    server,
    connectionsCell,
    result.reqPerSec.toFixed(0),
    ...(result.firstEvent ? [result.firstEvent.p50Ms.toFixed(1), result.firstEvent.p99Ms.toFixed(1)] : []),
    result.p50Ms.toFixed(1),
    result.p99Ms.toFixed(1),
    errors === 0 ? '0' : `${errors} of ${result.requests}`,
    usage ? perProcessCell(usage, (u) => u.peakRssMb, 1) : '-',
    usage && result.requests > 0 ? perProcessCell(usage, (u) => (1000 * u.cpuSeconds) / result.requests, 2) : '-',
    errors === 0 ? '' : 'RUN HAD ERRORS: figures are not valid',
  ];
}

/** The server's outcome at the most connections measured: the load the targets are set for. */
function atFullLoad(outcomes: Outcome[], server: ServerName): Outcome | undefined {
  return outcomes
    .filter((o) => o.server === server)
    .sort((a, b) => (b.connections ?? Infinity) - (a.connections ?? Infinity))[0];
}

/** The server's outcome at the fewest connections measured: its latency unloaded. */
function atLightestLoad(outcomes: Outcome[], server: ServerName): Outcome | undefined {
  return outcomes
    .filter((o) => o.server === server)
    .sort((a, b) => (a.connections ?? Infinity) - (b.connections ?? Infinity))[0];
}

/** A measured, error-free run (at full load unless `at` picks another), or the reason there is none. */
function valid(outcomes: Outcome[], server: ServerName, at = atFullLoad): LoadResult | string {
  const outcome = at(outcomes, server);
  if (!outcome?.result) return `${server} not measured`;
  if (errorCount(outcome.result) > 0) return `${server} run had errors`;
  return outcome.result;
}

export interface Target {
  label: string;
  goal: string;
  /** The target's figure in these outcomes, or why it cannot be assessed. */
  measure: (outcomes: Outcome[]) => number | string;
  shown: (value: number) => string;
  meets: (value: number) => boolean;
}

const times = (value: number) => `${value.toFixed(2)}x`;
const milliseconds = (value: number) => `${value.toFixed(1)} ms`;

function ratio(server: ServerName, minimum: number): Target {
  return {
    label: `${server}/reference req/s`,
    goal: `>= ${minimum.toFixed(1)}x`,
    measure: (outcomes) => {
      const measured = valid(outcomes, server);
      const reference = valid(outcomes, 'reference');
      if (typeof measured === 'string') return measured;
      if (typeof reference === 'string') return reference;
      return measured.reqPerSec / reference.reqPerSec;
    },
    shown: times,
    meets: (value) => value >= minimum,
  };
}

/** Total CPU per request over the server's processes, in ms, when measured without errors. */
function cpuPerRequestMs(outcomes: Outcome[], server: ServerName): number | string {
  const measured = valid(outcomes, server);
  if (typeof measured === 'string') return measured;
  const usage = atFullLoad(outcomes, server)?.usage;
  if (!usage || measured.requests === 0) return `${server} CPU not sampled`;
  return (1000 * [...usage.values()].reduce((sum, u) => sum + u.cpuSeconds, 0)) / measured.requests;
}

/** Twice the processes on the same cores: throughput can only grow if the CPU per request does not. */
const SCALE_OUT_CPU: Target = {
  label: 'scale-out/durable CPU per request',
  goal: '<= 1.2x',
  measure: (outcomes) => {
    if (!outcomes.some((o) => o.server === 'scale-out')) return 'scale-out not run: add --scale-out';
    const scaled = cpuPerRequestMs(outcomes, 'scale-out');
    const single = cpuPerRequestMs(outcomes, 'durable');
    if (typeof scaled === 'string') return scaled;
    if (typeof single === 'string') return single;
    return scaled / single;
  },
  shown: times,
  meets: (value) => value <= 1.2,
};

/** CPU per request of the server's processes together (durable: API + worker). */
function cpuBudget(server: ServerName, maximumMs: number): Target {
  return {
    label: `${server} CPU per request`,
    goal: `<= ${maximumMs.toFixed(1)} ms`,
    measure: (outcomes) => cpuPerRequestMs(outcomes, server),
    shown: (value) => `${value.toFixed(2)} ms`,
    meets: (value) => value <= maximumMs,
  };
}

function p99(server: ServerName, maximumMs: number): Target {
  return {
    label: `${server} p99`,
    goal: `< ${maximumMs} ms`,
    measure: (outcomes) => {
      const measured = valid(outcomes, server);
      return typeof measured === 'string' ? measured : measured.p99Ms;
    },
    shown: milliseconds,
    meets: (value) => value < maximumMs,
  };
}

/** The issue's targets for blocking SendMessage; durable's hold for both of its bindings, JSON-RPC and gRPC. */
export const SEND_TARGETS: Target[] = [
  ratio('durable', 0.5),
  ratio('durable-grpc', 0.5),
  ratio('embedded', 1.0),
  p99('durable', 100),
  p99('durable-grpc', 100),
  cpuBudget('durable', 1.0),
  SCALE_OUT_CPU,
];

/**
 * The issue's target for SendStreamingMessage: how soon a stream starts, judged at the fewest
 * connections measured. Under load the wait is mostly queueing, the reference's too: the table shows it.
 */
export const STREAMING_TARGETS: Target[] = [
  {
    label: 'durable first event p50, fewest connections',
    goal: '< 10 ms',
    measure: (outcomes) => {
      const durable = valid(outcomes, 'durable', atLightestLoad);
      if (typeof durable === 'string') return durable;
      return durable.firstEvent?.p50Ms ?? 'durable not streamed';
    },
    shown: milliseconds,
    meets: (value) => value < 10,
  },
];

/** The table (with first-event columns for a streaming run) and `targets`. */
export function printReport(outcomes: Outcome[], targets: Target[]): void {
  console.log('');
  const columns = header(outcomes.some((o) => o.result?.firstEvent));
  printTable(
    columns,
    outcomes.map((outcome) => row(outcome, columns.length)),
  );
  for (const { server, connections, result, failure } of outcomes) {
    const at = connections === undefined ? server : `${server} at ${connections} connections`;
    if (failure) console.log(`\n${at} FAILED: ${failure}`);
    else if (result?.sample) console.log(`\n${at}: first wrong response: ${result.sample}`);
  }
  console.log('');
  printTable(
    ['target', 'value', 'goal', 'verdict'],
    targets.map((target) => {
      const measured = target.measure(outcomes);
      if (typeof measured === 'string') return [target.label, '-', target.goal, `not assessed (${measured})`];
      return [target.label, target.shown(measured), target.goal, verdict(target, measured)];
    }),
  );
}

function verdict(target: Target, value: number): string {
  return target.meets(value) ? 'met' : 'MISSED';
}

/**
 * Each target over several rounds (every server measured once per round, so each round's ratios
 * compare servers measured minutes apart): its figure in each round, and the verdict on the median.
 */
export function printRoundsSummary(rounds: Outcome[][], targets: Target[]): void {
  console.log(`\nover ${rounds.length} rounds`);
  printTable(
    ['target', 'each round', 'median', 'goal', 'verdict'],
    targets.map((target) => {
      const measured = rounds.map((outcomes) => target.measure(outcomes));
      const values = measured.filter((value): value is number => typeof value === 'number').sort((a, b) => a - b);
      const each = measured.map((value) => (typeof value === 'number' ? target.shown(value) : '-')).join(' ');
      if (values.length === 0) return [target.label, each, '-', target.goal, 'not assessed'];
      const median =
        values.length % 2
          ? values[(values.length - 1) / 2]
          : (values[values.length / 2 - 1] + values[values.length / 2]) / 2;
      return [target.label, each, target.shown(median), target.goal, verdict(target, median)];
    }),
  );
}
