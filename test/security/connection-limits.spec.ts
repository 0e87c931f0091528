/**
 * Slow and idle clients are cut by the server's timeouts (`server.headers_timeout_ms`,
 * `request_timeout_ms`, `keep_alive_timeout_ms`), connections beyond `server.max_connections` are
 * closed as they arrive, and `/mcp` honours `Connection: close`; answers that take long (a blocking
 * send, an SSE stream) are not cut.
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { connect, type Socket } from 'node:net';
import { TEST_AGENTS_TOML } from '../support/test-agents';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import { bearer, startTestApp, testConfig } from '../support/test-app';

const HEADERS_TIMEOUT_MS = 300;
const REQUEST_TIMEOUT_MS = 600;
const KEEP_ALIVE_TIMEOUT_MS = 300;
/** Longer than every timeout above, between two events of its turn. */
const SILENCE_MS = 1_500;
/** Bounds each wait for a close, so that a connection left open fails with a reason, not jest's timeout. */
const CLOSE_WAIT_MS = 10_000;

const SILENT_AGENT_TOML = `${TEST_AGENTS_TOML}
[[agents]]
name = "silent"
description = "Echoes in two chunks, long apart"
[agents.executor]
type = "echo"
chunks = 2
delay_ms = ${SILENCE_MS}
`;

/** A raw connection to the server, and everything it received. */
interface RawConnection {
  socket: Socket;
  received(): string;
  /** Resolves when the connection closes; rejects if it stays open past CLOSE_WAIT_MS. */
  closed: Promise<void>;
}

async function open(url: string): Promise<RawConnection> {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`connection still open after ${CLOSE_WAIT_MS} ms; received: ${received}`)),
      CLOSE_WAIT_MS,
    );
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  closed.catch(() => socket.destroy());
  await new Promise((resolve) => socket.once('connect', resolve));
  return { socket, received: () => received, closed };
}

function requestHead(method: string, path: string, headers: Record<string, string | number>): string {
  const lines = Object.entries({ host: '127.0.0.1', ...headers }).map(([name, value]) => `${name}: ${value}`);
  return `${method} ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

/** Sends a GET of /healthz and waits for its whole answer, keeping the connection open. */
async function healthz(connection: RawConnection): Promise<void> {
  const before = connection.received().length;
  connection.socket.write(requestHead('GET', '/healthz', { connection: 'keep-alive' }));
  await eventually(
    async () => connection.received().slice(before),
    (text) => /^HTTP\/1\.1 200 [\s\S]*\r\n\r\n\{[^}]*\}$/.test(text),
    CLOSE_WAIT_MS,
  );
}

describe('connection limits', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    ({ app, url } = await startTestApp(
      testConfig({
        SWITCHBOARD_CONFIG: writeConfigFile(SILENT_AGENT_TOML),
        SWITCHBOARD_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
        SWITCHBOARD_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
        SWITCHBOARD_KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_TIMEOUT_MS),
      }),
    ));
  });

  afterAll(async () => {
    await app?.close();
  });

  it('answers 408 and closes the connection when a body does not arrive within request_timeout_ms', async () => {
    const connection = await open(url);
    connection.socket.write(
      requestHead('POST', '/a2a', { 'content-type': 'application/json', 'content-length': 100, ...bearer() }) +
        '{"jsonrpc":',
    );
    await connection.closed;
    expect(connection.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('answers 408 and closes the connection when headers do not arrive within headers_timeout_ms', async () => {
    const connection = await open(url);
    connection.socket.write('POST /a2a HTTP/1.1\r\nhost: 127.0.0.1\r\n');
    await connection.closed;
    expect(connection.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a connection that never sends a request', async () => {
    const connection = await open(url);
    await connection.closed;
    // Closed silently, or by Node's own headers timeout check when that runs first (a race of timers under load).
    expect(connection.received()).toMatch(/^(|HTTP\/1\.1 408 [^]*)$/);
  });

  it('closes a kept-alive connection idle for keep_alive_timeout_ms', async () => {
    const connection = await open(url);
    await healthz(connection);
    await connection.closed;
  });

  it('keeps a blocking send and an SSE stream whose turn is silent for longer than every timeout', async () => {
    const send = (method: string) =>
      fetch(`${url}/a2a/agents/silent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...bearer() },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method,
          params: { message: { messageId: method, role: 'ROLE_USER', parts: [{ text: 'quiet please' }] } },
        }),
      });
    const [blocking, streaming] = await Promise.all([send('SendMessage'), send('SendStreamingMessage')]);
    const task = ((await blocking.json()) as { result: { task: { status: { state: string } } } }).result.task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const events = (await streaming.text()).split('\n').filter((line) => line.startsWith('data: '));
    expect(events.at(-1)).toContain('TASK_STATE_COMPLETED');
  });
});

describe('connection cap and Connection: close', () => {
  const MAX_CONNECTIONS = 2;
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    ({ app, url } = await startTestApp(testConfig({ SWITCHBOARD_MAX_CONNECTIONS: String(MAX_CONNECTIONS) })));
  });

  afterAll(async () => {
    await app?.close();
  });

  it('closes connections beyond max_connections as they arrive, and takes new ones once others close', async () => {
    const held = await Promise.all(Array.from({ length: MAX_CONNECTIONS }, () => open(url)));
    for (const connection of held) await healthz(connection);
    const refused = await open(url);
    await refused.closed;
    expect(refused.received()).toBe('');
    held[0].socket.destroy();
    await held[0].closed;
    const next = await eventually(
      async () => {
        const connection = await open(url);
        connection.socket.write(requestHead('GET', '/healthz', { connection: 'close' }));
        await connection.closed;
        return connection.received();
      },
      (received) => received.startsWith('HTTP/1.1 200 '),
    );
    expect(next).toContain('"status":"ok"');
    held[1].socket.destroy();
  });

  it('closes the connection after an /mcp answer when the request says Connection: close', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const connection = await open(url);
    connection.socket.write(
      requestHead('POST', '/mcp', {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
        'content-length': Buffer.byteLength(body),
        connection: 'close',
        ...bearer(),
      }) + body,
    );
    await connection.closed;
    expect(connection.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(connection.received()).toContain('switchboard_agent_echo');
  });
});
