import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

type Answer = { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } };

/**
 * A JSON-RPC exchange with a child over newline-delimited stdio, as a client without an SDK
 * speaks it: `request` writes one request and resolves with the answer of the same id.
 */
export class StdioExchange {
  private readonly child: ChildProcess;
  private readonly waiting = new Map<string, (answer: Answer) => void>();
  private nextId = 0;

  constructor(command: string, args: string[], options: { cwd: string; env: Record<string, string> }) {
    this.child = spawn(command, args, { ...options, stdio: ['pipe', 'pipe', 'ignore'] });
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      const answer = JSON.parse(line) as Answer;
      const id = String(answer.id);
      this.waiting.get(id)?.(answer);
      this.waiting.delete(id);
    });
  }

  request(method: string, params: Record<string, unknown>): Promise<Answer> {
    const id = `stdio-${++this.nextId}`;
    const answered = new Promise<Answer>((resolve) => this.waiting.set(id, resolve));
    this.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    return answered;
  }

  /** Closes stdin (the client hangs up) and resolves once the child has exited. */
  close(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.stdin!.end();
    return exited;
  }
}
