/**
 * A2A throughput: the same blocking SendMessage load against the SDK's reference server, Switchboard
 * embedded and Switchboard durable (API + worker on Postgres and Redis), one after the other, with
 * latency, errors and peak RSS, and the targets checked. `durable-grpc` is durable again, its load
 * the same blocking SendMessage over gRPC (v1.0, `--connections` calls in flight on one channel).
 * Usage: npm run bench:a2a -- [--duration 10] [--warm-up 10] [--rounds 1] [--connections 50] [--only durable,durable-grpc] [--profile DIR] [--scale-out] [--streaming] [--tracing]
 * `--rounds N` measures every server N times, in turn (a round measures each once), and ends with
 * each target's figure in every round and the verdict on their median: on a shared machine one
 * round's ratio can be off by a third.
 * `--warm-up` is the unmeasured load before each measurement: V8 optimizes a function after some
 * thousands of calls, and each process of a multi-process server sees only its share of the load,
 * so a short warm-up measures scale-out's processes (and their compiler threads) before they run
 * optimized code.
 * `--connections` takes a list (`1,50`): each server is measured at each count in turn.
 * `--streaming` sends SendStreamingMessage instead and times each stream's first SSE event and its
 * end (connections default `1,50`: the latency unloaded, then under load); it has no gRPC load, so
 * durable-grpc is left out.
 * `durable-single` (by name, with `--only`) is durable in one process: the API runs the turns on its
 * own BullMQ worker, as `switchboard serve` does by default.
 * `--scale-out` adds 2 API replicas + 2 workers on one database and Redis (the load's connections
 * spread round-robin over both APIs) to the run, next to durable's 1 + 1 (`--only durable,scale-out`).
 * `--profile DIR` writes a V8 CPU profile of each Switchboard process into DIR (open it in Chrome
 * DevTools, or summarize it with `bench/cpu-profile-summary.ts`).
 * `--tracing` has Switchboard's processes export every span (OpenTelemetry, sampled at 100%, OTLP/HTTP
 * protobuf) to a sink in the bench that only counts them: run with and without it for the cost.
 * Exits non-zero when a server fails to start or answers wrongly; slow results are reported, not failed.
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureSwitchboardBuilt, hasA2aServer } from './build';
import { positiveInteger } from './cli-options';
import { runGrpcLoad, verifyGrpcAnswer } from './grpc-load';
import { type LoadOptions, type LoadResult, runLoad, verifyAnswer } from './load';
import { sampleUsage, shutdown } from './processes';
import { type Outcome, printReport, printRoundsSummary, SEND_TARGETS, STREAMING_TARGETS, type Target } from './report';
import {
  DEFAULT_SERVER_NAMES,
  exportTracesTo,
  GRPC_SERVER_NAMES,
  type RunningServer,
  SERVER_NAMES,
  type ServerName,
  startServer,
} from './servers';
import { runStreamLoad, verifyStreamAnswer } from './stream-load';
import { TraceSink } from './trace-sink';

let interrupted = false;

/** How one answer is checked and how the load runs. */
interface Calls {
  verify(server: RunningServer): Promise<void>;
  run(server: RunningServer, load: LoadOptions): Promise<LoadResult>;
}

/** What the clients send: its calls over JSON-RPC and, when it has them, over gRPC; which targets apply. */
interface Workload extends Calls {
  label: string;
  grpc?: Calls;
  targets: Target[];
}

const SEND: Workload = {
  label: 'blocking SendMessage',
  verify: verifyAnswer,
  run: runLoad,
  grpc: { verify: verifyGrpcAnswer, run: runGrpcLoad },
  targets: SEND_TARGETS,
};
const STREAMING: Workload = {
  label: 'SendStreamingMessage',
  verify: verifyStreamAnswer,
  run: runStreamLoad,
  targets: STREAMING_TARGETS,
};

interface BenchOptions {
  workload: Workload;
  /** One load per connection count, in the order given. */
  loads: LoadOptions[];
  servers: ServerName[];
  warmUpSecs: number;
  rounds: number;
  profileDir?: string;
  tracing: boolean;
}

function options(): BenchOptions {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '10' },
      'warm-up': { type: 'string', default: '10' },
      rounds: { type: 'string', default: '1' },
      connections: { type: 'string' },
      only: { type: 'string' },
      profile: { type: 'string' },
      'scale-out': { type: 'boolean', default: false },
      streaming: { type: 'boolean', default: false },
      tracing: { type: 'boolean', default: false },
    },
  });
  const workload = values.streaming ? STREAMING : SEND;
  const defaults = DEFAULT_SERVER_NAMES.filter((name) => workload.grpc || !GRPC_SERVER_NAMES.includes(name));
  const servers = values.only
    ? values.only.split(',')
    : [...defaults, ...(values['scale-out'] ? ['scale-out' as const] : [])];
  const unknown = servers.find((name) => !SERVER_NAMES.includes(name as ServerName));
  if (unknown) throw new Error(`--only takes ${SERVER_NAMES.join(', ')}; got "${unknown}"`);
  const noGrpc = !workload.grpc && servers.find((name) => GRPC_SERVER_NAMES.includes(name as ServerName));
  if (noGrpc) throw new Error(`${noGrpc} is measured over gRPC, which ${workload.label} is not (drop --streaming)`);
  const durationSecs = positiveInteger('duration', values.duration);
  const connections = (values.connections ?? (values.streaming ? '1,50' : '50'))
    .split(',')
    .map((count) => positiveInteger('connections', count));
  return {
    workload,
    loads: connections.map((count) => ({ durationSecs, connections: count })),
    servers: servers as ServerName[],
    warmUpSecs: positiveInteger('warm-up', values['warm-up']),
    rounds: positiveInteger('rounds', values.rounds),
    profileDir: values.profile && resolve(values.profile),
    tracing: values.tracing,
  };
}

/** One outcome per load, up to the first failure (which ends the server's run). */
async function measure(
  name: ServerName,
  { workload, loads, warmUpSecs, profileDir }: BenchOptions,
  buildError: string | undefined,
): Promise<Outcome[]> {
  let server: RunningServer | undefined;
  const outcomes: Outcome[] = [];
  let connections: number | undefined;
  try {
    if (name !== 'reference' && buildError) throw new Error(buildError);
    console.log(`${name}: starting`);
    server = await startServer(name, profileDir);
    const calls = GRPC_SERVER_NAMES.includes(name) ? workload.grpc! : workload;
    await calls.verify(server);
    console.log(`${name}: answers correctly`);
    for (const load of loads) {
      connections = load.connections;
      console.log(
        `${name}: ${connections} connections: warming up ${warmUpSecs} s, then measuring ${load.durationSecs} s`,
      );
      await calls.run(server, { ...load, durationSecs: warmUpSecs });
      const stopSampling = sampleUsage(server.processes);
      const result = await calls.run(server, load);
      const usage = stopSampling();
      const dead = server.processes.find((p) => !p.running);
      if (dead) throw new Error(`${dead.name} exited (${dead.exitStatus}) during the load:\n${dead.tail()}`);
      outcomes.push({ server: name, connections, result, usage });
    }
  } catch (error) {
    const missing =
      name !== 'reference' && !hasA2aServer() ? ' (dist/a2a-server is missing: the A2A server is not built yet)' : '';
    outcomes.push({ server: name, connections, failure: `${(error as Error).message}${missing}` });
  } finally {
    await server?.stop();
  }
  return outcomes;
}

async function main(): Promise<void> {
  const bench = options();
  const { workload, loads, servers, warmUpSecs } = bench;
  const { durationSecs } = loads[0];
  console.log(
    `A2A bench: ${workload.label}, ${loads.map((load) => load.connections).join(' then ')} connections, ${durationSecs} s each after ${warmUpSecs} s of warm-up; ` +
      `Node ${process.version}, ${availableParallelism()} cores shared by the server and the load generator`,
  );
  if (durationSecs < 10) console.log('(under 10 s: a smoke run, not a measurement)');
  const sink = bench.tracing ? await TraceSink.start() : undefined;
  if (sink) {
    exportTracesTo(sink.endpoint);
    console.log(`tracing on: every span exported (OTLP/HTTP protobuf) to a counting sink at ${sink.endpoint}`);
  }
  let buildError: string | undefined;
  try {
    if (await ensureSwitchboardBuilt()) console.log('built Switchboard (dist/ was missing or older than src/)');
  } catch (error) {
    buildError = (error as Error).message;
  }
  const rounds: Outcome[][] = [];
  for (let round = 1; round <= bench.rounds; round++) {
    if (bench.rounds > 1) console.log(`\nround ${round} of ${bench.rounds}`);
    const outcomes: Outcome[] = [];
    for (const name of servers) {
      const measured = await measure(name, bench, buildError);
      // After Ctrl-C a failure is most likely the interruption itself (a killed migration): no report.
      if (interrupted) return;
      outcomes.push(...measured);
    }
    printReport(outcomes, workload.targets);
    rounds.push(outcomes);
  }
  if (rounds.length > 1) printRoundsSummary(rounds, workload.targets);
  if (sink) {
    console.log(`trace sink: ${sink.exports} exports, ${(sink.bytes / 1e6).toFixed(1)} MB of spans`);
    await sink.close();
  }
  if (rounds.flat().some((outcome) => outcome.failure)) process.exitCode = 1;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // A second signal exits at once; the exit hook in processes.ts still kills the children.
    if (interrupted) process.exit(130);
    interrupted = true;
    console.error(`\n${signal}: stopping the servers and cleaning up (again to exit at once)`);
    void shutdown().finally(() => process.exit(130));
  });
}

main()
  .catch((error: Error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(shutdown);
