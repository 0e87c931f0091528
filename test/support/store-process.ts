import { type ChildProcess, spawn, type SpawnOptions } from 'node:child_process';
import { freePort } from './free-port';

const START_TIMEOUT_MS = 20_000;

/**
 * A store server (Redis, Postgres) of a test's own, on a port of its own, that the test stops and
 * starts again to inject an outage; never the shared instances.
 */
export abstract class StoreProcess {
  private child?: ChildProcess;

  protected constructor(readonly port: number) {}

  protected static freePort = freePort;

  abstract get url(): string;

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts the server (stopping it first if it runs) and resolves once it answers. */
  async restart(): Promise<void> {
    await this.stop();
    const [command, args, options] = this.command();
    const child = spawn(command, args, { stdio: 'ignore', ...options });
    this.child = child;
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!(await this.answers())) {
      if (child.exitCode !== null) throw new Error(`${command} on port ${this.port} exited with ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error(`${command} on port ${this.port} did not start`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Stops the server with `signal` (connections are dropped) and resolves once it exited. */
  async stop(signal: NodeJS.Signals = this.stopSignal()): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.child = undefined;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }

  /**
   * Freezes the server (SIGSTOP): its connections stay open and unanswered, as with a host gone from
   * the network or a hung process. `resume` thaws it.
   */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  resume(): void {
    this.child?.kill('SIGCONT');
  }

  protected abstract command(): [string, string[], SpawnOptions?];
  protected abstract answers(): Promise<boolean>;
  protected abstract stopSignal(): NodeJS.Signals;
}
