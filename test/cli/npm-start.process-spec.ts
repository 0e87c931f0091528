/**
 * `npm start`, the README's way to run Switchboard, is one process to stop: SIGTERM to npm's pid
 * (`kill`, a container runtime) reaches the server, and so does a terminal's Ctrl-C (SIGINT to the
 * whole process group, which npm then forwards to the server once more). Real npm, real signals.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { resolve } from 'node:path';
import { within } from '../support/service-processes';
import { writeConfigFile } from '../support/config-file';
import { freePort } from '../support/free-port';

jest.setTimeout(180_000);

const ROOT = resolve(__dirname, '../..');
const LISTENING = /^(\{.*"msg":"switchboard listening"\})$/m;

interface NpmStart {
  npm: ChildProcess;
  output: () => string;
  /** npm's exit code, once npm has exited and every process writing to its pipes (the server) has too. */
  closed: Promise<number | null>;
}

const started: NpmStart[] = [];

afterAll(() => {
  // Whatever a failing test left in the process group (npm, an orphaned server) goes.
  for (const { npm } of started) {
    try {
      process.kill(-npm.pid!, 'SIGKILL');
    } catch {
      // the group is gone already
    }
  }
});

/** `npm start` in the repository, embedded, in a process group of its own (as a terminal's job is). */
async function npmStart(): Promise<NpmStart> {
  const npm = spawn('npm', ['start'], {
    cwd: ROOT,
    // An empty config file: a switchboard.toml of the checkout's own does not change what is tested.
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(await freePort()),
      SWITCHBOARD_CONFIG: writeConfigFile(''),
    },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  npm.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const closed = new Promise<number | null>((done) => npm.once('close', (code) => done(code)));
  const run = { npm, output: () => output, closed };
  started.push(run);
  return run;
}

/** Resolves with the match once what npm start wrote matches `pattern`; rejects if it ends first. */
function written(run: NpmStart, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((found, failed) => {
    const check = () => {
      const match = pattern.exec(run.output());
      if (!match) return;
      run.npm.stdout!.off('data', check);
      found(match);
    };
    run.npm.stdout!.on('data', check);
    void run.closed.then(() => failed(new Error(`npm start ended before it wrote ${pattern}:\n${run.output()}`)));
    check();
  });
}

/** The server `npm start` started, from its ready line: its pid and URL. */
async function serverOf(run: NpmStart): Promise<{ pid: number; url: string }> {
  // A first start after a change to src/ builds first (prestart).
  const [, line] = await within(written(run, LISTENING), 120_000, "npm start's ready line");
  return JSON.parse(line) as { pid: number; url: string };
}

/**
 * A request the server has begun (Node answered its `Expect: 100-continue`) whose body is still to
 * come: the server's drain waits for it. `finish` sends the body and resolves with all the server wrote.
 */
async function requestInFlight(url: string): Promise<{ finish: () => Promise<string> }> {
  const { hostname, port } = new URL(url);
  const socket = await new Promise<Socket>((opened) => {
    const connected: Socket = connect(Number(port), hostname, () => opened(connected));
  });
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  // A server that exits mid-request resets the connection: the answer shows what arrived.
  socket.on('error', () => undefined);
  const ended = new Promise<string>((done) => socket.once('close', () => done(answer)));
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'no-such-task' } });
  socket.write(
    `POST /a2a HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nA2A-Version: 1.0\r\n` +
      `Connection: close\r\nExpect: 100-continue\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
  );
  await new Promise<void>((begun) => {
    const check = () => answer.startsWith('HTTP/1.1 100 Continue') && (socket.off('data', check), begun());
    socket.on('data', check);
  });
  return { finish: () => (socket.end(body), ended) };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm start', () => {
  it('stops the server when npm is sent SIGTERM: the server drains and exits 0, and so does npm', async () => {
    const run = await npmStart();
    const { pid } = await serverOf(run);
    expect(pid).not.toBe(run.npm.pid);

    process.kill(run.npm.pid!, 'SIGTERM');

    const code = await within(run.closed, 15_000, `the server (pid ${pid}) exiting after npm was sent SIGTERM`);
    expect({ code, output: run.output() }).toEqual({
      code: 0,
      output: expect.stringContaining('shutting down: draining requests and jobs'),
    });
    expect(isRunning(pid)).toBe(false);
  });

  it('drains on Ctrl-C, also when npm\u2019s forwarded copy of it reaches the server after the terminal\u2019s', async () => {
    const run = await npmStart();
    const { pid, url } = await serverOf(run);
    const inFlight = await requestInFlight(url);

    // Ctrl-C: the terminal signals every process of the group, and npm forwards its copy to the
    // server. Both copies often arrive as one; here the server has taken the first when the second comes.
    process.kill(pid, 'SIGINT');
    await within(
      written(run, /shutting down: draining requests and jobs/),
      5_000,
      'the server taking the first SIGINT',
    );
    process.kill(run.npm.pid!, 'SIGINT');
    await within(written(run, /second signal|forwarded copy/), 5_000, "the server taking npm's copy of SIGINT");

    expect(await within(inFlight.finish(), 5_000, 'the answer to the request in flight')).toMatch(
      /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /,
    );
    const code = await within(run.closed, 15_000, `the server (pid ${pid}) exiting after Ctrl-C`);
    expect({ code, output: run.output() }).toEqual({ code: 0, output: expect.not.stringContaining('second signal') });
    expect(isRunning(pid)).toBe(false);
  });
});
