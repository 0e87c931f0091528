import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** The reference servers, run with `node` as the README's config examples do. */
export const EVERYTHING_SERVER = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM_SERVER = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
/** A v2-SDK stdio server: `legacy` or `modern` era, with a tool that changes its tool list. */
export const DYNAMIC_SERVER = join(__dirname, '../fixtures/dynamic-server.cjs');

/** server-everything over HTTP (`streamableHttp` at /mcp, `sse` at /sse), ready once it says it listens. */
export function startEverythingServer(kind: 'streamableHttp' | 'sse', port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [EVERYTHING_SERVER, kind], {
    env: { PATH: process.env.PATH, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    const listening = (chunk: Buffer) => {
      if (String(chunk).includes(String(port))) resolve(child);
    };
    child.stdout!.on('data', listening);
    child.stderr!.on('data', listening);
    child.once('exit', (code) => reject(new Error(`server-everything ${kind} exited with ${code} before listening`)));
  });
}

export async function killProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** Live child processes of this (Jest worker) process whose command line contains `marker`. */
export function childProcesses(marker: string): number[] {
  let out: string;
  try {
    out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  } catch {
    return []; // ps exits 1 when there are no children
  }
  return out
    .split('\n')
    .filter((line) => line.includes(marker) && !/<defunct>/.test(line))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The last thing a stdio server that cannot start says before it exits. */
export const FAILING_SERVER_SAYS = 'fatal: cannot reach the database at db.internal:5432';

/** `node -e` arguments for a stdio server that writes two lines to stderr and exits 3 at every start. */
export const FAILING_SERVER_ARGS = [
  '-e',
  `process.stderr.write('starting\\n${FAILING_SERVER_SAYS}\\n'); process.exit(3)`,
];
