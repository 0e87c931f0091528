import type { StreamResponse, TaskState } from '@a2a-js/sdk';
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { freePort } from './free-port';
import { TEST_API_KEY } from './test-app';

/** The built command (`npm run build` first; jest's `pretest` does it). */
const BIN = resolve(__dirname, '../../bin/switchboard.js');
const READY_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 10_000;
/** Keeps the tail of a process's output for failure messages, not a whole run's logs. */
const OUTPUT_LIMIT = 64 * 1024;
const REPORT_LINES = 40;
/** Logged by `switchboard worker` once its queue workers are created (an info-level line). */
const WORKER_RUNNING = 'switchboard worker running';

export type Role = 'serve' | 'worker';

/** One real `switchboard serve` or `switchboard worker` process, started by a test. */
export class ServiceProcess {
  private stdout = '';
  private stderr = '';
  /** Resolves with the exit code, or the signal that ended the process. */
  readonly exited: Promise<number | NodeJS.Signals>;

  constructor(
    readonly name: string,
    readonly role: Role,
    private readonly child: ChildProcess,
    /** The API's base URL; undefined for a worker. */
    readonly url: string | undefined,
  ) {
    child.stdout!.on('data', (chunk: Buffer) => (this.stdout = tail(this.stdout + chunk.toString())));
    child.stderr!.on('data', (chunk: Buffer) => (this.stderr = tail(this.stderr + chunk.toString())));
    this.exited = new Promise((done) => child.once('exit', (code, signal) => done(code ?? signal!)));
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The API's base URL; throws for a worker. */
  get baseUrl(): string {
    if (!this.url) throw new Error(`${this.name} is a worker and serves no HTTP`);
    return this.url;
  }

  /** What the process wrote to stdout and stderr (the last 64 KiB of each). */
  get output(): string {
    return this.stdout + this.stderr;
  }

  /** True when a line the process wrote (in its last 64 KB of output) holds every one of `texts`: a test waits on a log event with it. */
  hasLogged(...texts: string[]): boolean {
    return `${this.stdout}\n${this.stderr}`.split('\n').some((line) => texts.every((text) => line.includes(text)));
  }

  /** Resolves once the process writes a line that `hasLogged` finds; rejects if it exits first. */
  logged(...texts: string[]): Promise<void> {
    const streams = [this.child.stdout!, this.child.stderr!];
    return new Promise((found, failed) => {
      const check = () => {
        if (this.hasLogged(...texts)) settle(found);
        else if (!this.running)
          settle(() =>
            failed(new Error(`${this.name} exited before it logged ${JSON.stringify(texts)}\n${this.report()}`)),
          );
      };
      const settle = (outcome: () => void) => {
        for (const stream of streams) stream.off('data', check);
        this.child.off('exit', check);
        outcome();
      };
      // Registered after the constructor's listeners, so a chunk is in the output when it is checked.
      for (const stream of streams) stream.on('data', check);
      this.child.on('exit', check);
      check();
    });
  }

  /** The last lines the process wrote, for failure messages. */
  report(): string {
    const last = (text: string) => text.trimEnd().split('\n').slice(-REPORT_LINES).join('\n') || '(empty)';
    return `--- ${this.name} (${this.role}, pid ${this.pid}) stderr:\n${last(this.stderr)}\n--- ${this.name} stdout:\n${last(this.stdout)}`;
  }

  /** Sends `signal` and waits for the exit; a process still alive after the timeout gets SIGKILL. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | NodeJS.Signals> {
    if (!this.running) return this.exited;
    this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /** kill -9: no shutdown hooks run, BullMQ locks stop being renewed, like a crashed machine. */
  kill(): Promise<number | NodeJS.Signals> {
    return this.stop('SIGKILL');
  }

  async waitUntilReady(): Promise<void> {
    if (this.role === 'worker') {
      await within(this.logged(WORKER_RUNNING), READY_TIMEOUT_MS, `${this.name} logging "${WORKER_RUNNING}"`).catch(
        (error: Error) => {
          throw new Error(`${error.message}\n${this.report()}`);
        },
      );
      return;
    }
    const deadline = Date.now() + READY_TIMEOUT_MS;
    let last = 'no answer yet';
    while (Date.now() < deadline) {
      if (!this.running)
        throw new Error(`${this.name} exited (${String(await this.exited)}) before it was ready\n${this.report()}`);
      try {
        const response = await fetch(`${this.url}/readyz`, { signal: AbortSignal.timeout(2_000) });
        if (response.status === 200) return;
        last = `${response.status} ${await response.text()}`;
      } catch (error) {
        last = (error as Error).message;
      }
      await new Promise((done) => setTimeout(done, 100));
    }
    throw new Error(
      `${this.name} was not ready within ${READY_TIMEOUT_MS} ms (last /readyz: ${last})\n${this.report()}`,
    );
  }
}

/**
 * Starts and tracks the service processes of one test file, all sharing one config file, database
 * and Redis prefix; `stopAll()` in afterAll leaves no process behind.
 */
export class ServiceProcesses {
  private readonly started: ServiceProcess[] = [];

  constructor(private readonly env: Record<string, string>) {}

  /**
   * An API process on a free port of its own (and, with `grpc`, a free gRPC port, which its cards
   * list); turns run only on worker processes. Resolves once /readyz answers 200.
   */
  async api(name: string, { grpc = false }: { grpc?: boolean } = {}): Promise<ServiceProcess> {
    const port = await freePort();
    const grpcPort: Record<string, string> = grpc ? { SWITCHBOARD_GRPC_PORT: String(await freePort()) } : {};
    return this.start(
      name,
      'serve',
      { PORT: String(port), SWITCHBOARD_WORKER_IN_API: 'false', LOG_LEVEL: 'warn', ...grpcPort },
      `http://127.0.0.1:${port}`,
    );
  }

  /** A worker process; resolves once it logs that its queue workers run (so its logs are at info level). */
  worker(name: string): Promise<ServiceProcess> {
    return this.start(name, 'worker', { LOG_LEVEL: 'info' });
  }

  /** Stops every process still running: SIGTERM, then SIGKILL for any that does not exit in time. */
  async stopAll(): Promise<void> {
    await Promise.all(this.started.map((service) => service.stop()));
  }

  /** Every process's output, for a failing assertion's message. */
  report(): string {
    return this.started.map((service) => service.report()).join('\n');
  }

  /** Runs `assertions`; if they fail, the error's message ends with every process's output. */
  async explain<T>(assertions: () => T | Promise<T>): Promise<T> {
    try {
      return await assertions();
    } catch (error) {
      if (error instanceof Error) error.message += `\n\nService processes:\n${this.report()}`;
      throw error;
    }
  }

  private async start(
    name: string,
    role: Role,
    roleEnv: Record<string, string>,
    url?: string,
  ): Promise<ServiceProcess> {
    const child = spawn(process.execPath, [BIN, role], {
      env: {
        PATH: process.env.PATH ?? '',
        HOST: '127.0.0.1',
        SWITCHBOARD_API_KEYS: `tester=${TEST_API_KEY}`,
        ...roleEnv,
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const service = new ServiceProcess(name, role, child, url);
    this.started.push(service);
    await service.waitUntilReady();
    return service;
  }
}

function tail(text: string): string {
  return text.length > OUTPUT_LIMIT ? text.slice(-OUTPUT_LIMIT) : text;
}

/** Rejects with `what` when `promise` has not settled within `ms`, so a hang fails with a reason, not jest's timeout. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The task state a stream event announces, if it is a status update. */
export function stateOf(event: StreamResponse | undefined): TaskState | undefined {
  return event?.payload?.$case === 'statusUpdate' ? event.payload.value.status?.state : undefined;
}
