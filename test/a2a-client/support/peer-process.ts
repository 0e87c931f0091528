import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { PeerRequest, PeerSettings } from './peer-agent';

export type { PeerRequest, PeerSettings } from './peer-agent';

const REPO_ROOT = resolve(__dirname, '../../..');
const PEER_SCRIPT = resolve(__dirname, 'peer-agent.ts');
/**
 * ts-node transpiling the SDK-based script takes about a second of CPU, much longer on a machine
 * busy with other test files; this only bounds a broken start.
 */
const START_TIMEOUT_MS = 60_000;
/** Keeps the tail of stderr for failure messages. */
const STDERR_LIMIT = 16 * 1024;

/** A running peer agent (one of the agents of a peer process). */
export interface PeerAgent {
  /** Base URL, `http://127.0.0.1:<port>`; the card is at `/.well-known/agent-card.json` (or the legacy path). */
  url: string;
  port: number;
  /** Every request the peer has received so far, oldest first. */
  requests(): Promise<PeerRequest[]>;
  /** Sends `signal` (SIGTERM by default) to the peer's process, ending every peer started with it, and resolves once it has exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

const running = new Set<ChildProcess>();

/** Starts one peer agent in a process of its own (so that it can be killed alone). */
export async function startPeer(settings: PeerSettings): Promise<PeerAgent> {
  const [peer] = await startPeers([settings]);
  return peer;
}

/** Starts peer-agent.ts as one child process serving a peer per settings; resolves once it prints its `listening` line. */
export function startPeers(settings: PeerSettings[]): Promise<PeerAgent[]> {
  const child = spawn(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', PEER_SCRIPT, JSON.stringify(settings)],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  running.add(child);
  child.once('exit', () => running.delete(child));
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-STDERR_LIMIT)));

  return new Promise<PeerAgent[]>((resolvePeers, reject) => {
    let settled = false;
    const fail = (reason: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void stop(child, 'SIGKILL');
      reject(
        new Error(`peer agent ${JSON.stringify(settings)} ${reason}\n--- stderr:\n${stderr.trimEnd() || '(empty)'}`),
      );
    };
    const timer = setTimeout(() => fail(`did not listen within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
    child.once('error', (error) => fail(`could not be spawned: ${error.message}`));
    // 'close' rather than 'exit': by then stderr has been read to the end.
    child.once('close', (code, signal) => fail(`exited (${code ?? signal}) before listening`));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      const ports = listeningPorts(line);
      if (ports?.length !== settings.length)
        return fail(`printed ${JSON.stringify(line)} instead of {"listening":[<port>, ...]}`);
      settled = true;
      clearTimeout(timer);
      const peerAt = (port: number): PeerAgent => {
        const url = `http://127.0.0.1:${port}`;
        return { url, port, requests: () => recordedRequests(url), kill: (signal = 'SIGTERM') => stop(child, signal) };
      };
      resolvePeers(ports.map(peerAt));
    });
  });
}

/** Kills every peer still running; for `afterAll`, so no child outlives its test file. */
export async function killAllPeers(): Promise<void> {
  await Promise.all([...running].map((child) => stop(child, 'SIGKILL')));
}

async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  await exited;
}

function listeningPorts(line: string): number[] | undefined {
  try {
    const { listening } = JSON.parse(line) as { listening?: unknown };
    return Array.isArray(listening) && listening.every((port) => typeof port === 'number') ? listening : undefined;
  } catch {
    return undefined;
  }
}

async function recordedRequests(url: string): Promise<PeerRequest[]> {
  const response = await fetch(`${url}/__peer/requests`, { signal: AbortSignal.timeout(5_000) });
  if (!response.ok) throw new Error(`peer agent answered ${response.status} for its request log`);
  return (await response.json()) as PeerRequest[];
}
