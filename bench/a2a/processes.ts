/**
 * The bench's child processes: started with a minimal environment, their output kept for the error
 * message when they fail, stopped on every way out (normal end, error, Ctrl-C), and their peak
 * resident memory sampled from /proc while the load runs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const OUTPUT_TAIL_CHARS = 4_000;
// Beyond Switchboard's own shutdown timeout (25 s): a process killed early writes no CPU profile.
const STOP_GRACE_MS = 30_000;
const SLOW_STOP_MS = 2_000;

export class ServerProcess {
  private output = '';
  readonly exited: Promise<void>;

  constructor(
    readonly name: string,
    readonly child: ChildProcess,
  ) {
    const keep = (chunk: Buffer) => (this.output = (this.output + chunk.toString()).slice(-OUTPUT_TAIL_CHARS));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** How it ended, for error messages. */
  get exitStatus(): string {
    return this.child.signalCode ?? `code ${this.child.exitCode}`;
  }

  /** The last few KB the process wrote, for error messages. */
  tail(): string {
    return this.output.trim() || '(no output)';
  }

  /** SIGTERM (Switchboard drains in-flight work), then SIGKILL if it has not exited in time. */
  async stop(): Promise<void> {
    if (!this.running) return;
    const started = Date.now();
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
    const tookMs = Date.now() - started;
    if (tookMs > SLOW_STOP_MS)
      console.log(`${this.name}: took ${(tookMs / 1000).toFixed(1)} s to stop (${this.exitStatus})`);
  }
}

const started = new Set<ServerProcess>();

/** Spawns `node <args>` with exactly `env` (plus PATH), so the caller's DATABASE_URL and the like do not leak in. */
export function startNode(name: string, args: string[], env: Record<string, string>, cwd: string): ServerProcess {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const server = new ServerProcess(name, child);
  started.add(server);
  void server.exited.then(() => started.delete(server));
  return server;
}

const cleanups = new Set<() => Promise<void>>();

/**
 * Registers an undo step (stop a server, drop a database) for `shutdown`; returns it as a function
 * that runs it at most once, for the normal path to call. It stays registered until it has finished,
 * so a Ctrl-C during a cleanup waits for it instead of exiting halfway.
 */
export function registerCleanup(cleanup: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  const once = () => (done ??= cleanup().finally(() => cleanups.delete(once)));
  cleanups.add(once);
  return once;
}

/** Runs (or waits for) every pending cleanup, newest first, then stops any process still running. */
export async function shutdown(): Promise<void> {
  while (cleanups.size > 0) {
    for (const cleanup of [...cleanups].reverse()) {
      await cleanup().catch((error: Error) => console.error(`cleanup failed: ${error.message}`));
    }
  }
  await Promise.all([...started].map((server) => server.stop()));
}

/** Runs a bench's `main`: a failure is printed and sets a non-zero exit code; Ctrl-C and every end clean up. */
export function runBench(main: () => Promise<void>): void {
  process.once('SIGINT', () => void shutdown().finally(() => process.exit(130)));
  main()
    .catch((error: Error) => {
      console.error(error);
      process.exitCode = 1;
    })
    .finally(shutdown);
}

/** Last resort when the bench exits without stopping its children (an exception, a second Ctrl-C). */
process.once('exit', () => {
  for (const server of started) if (server.running) server.child.kill('SIGKILL');
});

/** Resident set size of a process in MB, or undefined once it has gone. */
export function rssMb(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux everywhere that matters). */
const USER_HZ = 100;

/** The fields of /proc/<pid>/stat after the parenthesized command name (the 3rd field overall is [0]), or undefined once it has gone. */
function statFields(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) a process has used so far, or 0 once it has gone. */
export function cpuSeconds(pid: number): number {
  // utime and stime are the 14th and 15th fields overall.
  const fields = statFields(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) / USER_HZ : 0;
}

/** The pids of a process's children, their children and so on, found by each process's parent pid in /proc. */
export function descendantPids(pid: number): number[] {
  const childrenOf = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = Number(statFields(Number(entry))?.[1]);
    childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  for (const queue = [pid]; queue.length > 0;) {
    const children = childrenOf.get(queue.shift()!) ?? [];
    found.push(...children);
    queue.push(...children);
  }
  return found;
}

export interface ProcessUsage {
  /** Peak RSS in MB. */
  peakRssMb: number;
  /** CPU seconds used while sampled: comparable across noisy runs where throughput is not. */
  cpuSeconds: number;
}

/** Samples each process's RSS every `intervalMs` and its CPU time until stopped; returns each one's usage. */
export function sampleUsage(
  processes: Pick<ServerProcess, 'name' | 'pid'>[],
  intervalMs = 200,
): () => Map<string, ProcessUsage> {
  const peaks = new Map(processes.map((p) => [p.name, 0]));
  const cpuAtStart = new Map(processes.map((p) => [p.name, cpuSeconds(p.pid)]));
  const sample = () => {
    for (const p of processes) peaks.set(p.name, Math.max(peaks.get(p.name)!, rssMb(p.pid) ?? 0));
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return () => {
    clearInterval(timer);
    sample();
    return new Map(
      processes.map((p) => [
        p.name,
        { peakRssMb: peaks.get(p.name)!, cpuSeconds: cpuSeconds(p.pid) - cpuAtStart.get(p.name)! },
      ]),
    );
  };
}

/** Polls `url` until it answers 2xx; fails early with the process's output if a process exits. */
export async function waitUntilReady(url: string, processes: ServerProcess[], timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    const dead = processes.find((p) => !p.running);
    if (dead) throw new Error(`${dead.name} exited (${dead.exitStatus}) before it was ready:\n${dead.tail()}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
      last = `${response.status} ${await response.text()}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(
    `${url} not ready after ${timeoutMs} ms (last: ${last}):\n${processes.map((p) => `--- ${p.name}\n${p.tail()}`).join('\n')}`,
  );
}
