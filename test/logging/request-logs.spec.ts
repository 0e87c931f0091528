import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { PinoLogger } from 'nestjs-pino';
import { __resetOutOfContextForTests } from 'nestjs-pino/PinoLogger';
import { storage } from 'nestjs-pino/storage';
import pino = require('pino');
import { bearer, startTestApp, testConfig } from '../support/test-app';

const WRONG_KEY = 'wrong-key-0123456789abcdef';

type LogLine = Record<string, unknown>;

/** The app's log lines, written here in place of stdout, and a way to wait for one. */
class CapturedLogs {
  readonly lines: LogLine[] = [];
  private readonly waiting: { matches: (line: LogLine) => boolean; found: (line: LogLine) => void }[] = [];

  write(text: string): boolean {
    const line = JSON.parse(text) as LogLine;
    this.lines.push(line);
    for (const waiter of this.waiting.filter(({ matches }) => matches(line))) waiter.found(line);
    return true;
  }

  /** Resolves with the first line, written or to come, that holds every field of `fields`. */
  line(fields: LogLine): Promise<LogLine> {
    const matches = (line: LogLine) => Object.entries(fields).every(([key, value]) => line[key] === value);
    const written = this.lines.find(matches);
    return written ? Promise.resolve(written) : new Promise((found) => this.waiting.push({ matches, found }));
  }
}

interface LoggingApp {
  app: NestFastifyApplication;
  url: string;
  logs: CapturedLogs;
}

/** An app logging at `level` for the enclosing describe block, its lines captured. */
function appLoggingAt(level: string): LoggingApp {
  const started = {} as LoggingApp;
  beforeAll(async () => {
    const logs = new CapturedLogs();
    jest.spyOn(pino, 'destination').mockReturnValue(logs as unknown as ReturnType<typeof pino.destination>);
    // nestjs-pino makes the logger for lines outside a request once per process, from the first app's options.
    __resetOutOfContextForTests();
    Object.assign(started, await startTestApp(testConfig({ LOG_LEVEL: level })), { logs });
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await started.app?.close();
  });
  return started;
}

/** A v1.0 JSON-RPC SendMessage to the demo agent (`echo`), with the test's key and `requestId`; resolves with the new task's id. */
async function sendMessage(url: string, requestId: string): Promise<string> {
  const response = await fetch(`${url}/a2a`, {
    method: 'POST',
    headers: { ...bearer(), 'content-type': 'application/json', 'a2a-version': '1.0', 'x-request-id': requestId },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: requestId, role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
    }),
  });
  const { result } = (await response.json()) as { result: { task: { id: string } } };
  return result.task.id;
}

describe('request logs at info level', () => {
  const started = appLoggingAt('info');

  it('logs each request once answered, with its request id', async () => {
    const response = await fetch(`${started.url}/api/mcp/servers`, {
      headers: { ...bearer(), 'x-request-id': 'trace-logs.1' },
    });
    expect(response.status).toBe(200);
    expect(await started.logs.line({ msg: 'request completed', requestId: 'trace-logs.1' })).toMatchObject({
      level: 30,
      req: { method: 'GET', url: '/api/mcp/servers' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
  });

  it('says who called, from where, which JSON-RPC method, agent and task, in one line without response headers', async () => {
    const taskId = await sendMessage(started.url, 'trace-logs.a2a');
    const line = await started.logs.line({ msg: 'request completed', requestId: 'trace-logs.a2a' });
    expect(line).toEqual({
      level: 30,
      time: expect.any(Number),
      service: 'switchboard',
      pid: process.pid,
      hostname: expect.any(String),
      requestId: 'trace-logs.a2a',
      req: { method: 'POST', url: '/a2a' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
      principal: 'tester',
      clientAddress: '127.0.0.1',
      route: '/a2a',
      rpcMethod: 'SendMessage',
      agent: 'echo',
      taskId,
      msg: 'request completed',
    });
    expect(
      started.logs.lines.filter((other) => other.requestId === 'trace-logs.a2a' && other.msg === 'request completed'),
    ).toHaveLength(1);
  });

  it("names a /mcp request's MCP method", async () => {
    await fetch(`${started.url}/mcp`, {
      method: 'POST',
      headers: {
        ...bearer(),
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-request-id': 'trace-logs.mcp',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(await started.logs.line({ msg: 'request completed', requestId: 'trace-logs.mcp' })).toMatchObject({
      principal: 'tester',
      route: '/mcp',
      rpcMethod: 'tools/list',
    });
  });

  it('writes no info line for probes', async () => {
    for (const probe of ['/healthz', '/readyz', '/metrics']) {
      expect(
        (
          await fetch(`${started.url}${probe}`, {
            headers: { ...bearer(), 'x-request-id': `trace-logs.probe${probe}` },
          })
        ).ok,
      ).toBe(true);
    }
    // Lines are written in the order the requests end: once this one is there, the probes' would be.
    await sendMessage(started.url, 'trace-logs.after-probes');
    await started.logs.line({ msg: 'request completed', requestId: 'trace-logs.after-probes' });
    expect(started.logs.lines.filter((line) => String(line.requestId).startsWith('trace-logs.probe'))).toEqual([]);
  });

  it('puts the request id on lines logged while handling the request', async () => {
    const response = await fetch(`${started.url}/metrics`, {
      headers: { ...bearer(WRONG_KEY), 'x-request-id': 'trace-logs.2' },
    });
    expect(response.status).toBe(401);
    expect(await started.logs.line({ msg: 'rejected an invalid API key' })).toMatchObject({
      level: 40,
      requestId: 'trace-logs.2',
    });
  });
});

describe('request logs at debug level', () => {
  const started = appLoggingAt('debug');

  it('logs probes at debug', async () => {
    expect((await fetch(`${started.url}/healthz`, { headers: { 'x-request-id': 'trace-logs.debug-probe' } })).ok).toBe(
      true,
    );
    expect(await started.logs.line({ msg: 'request completed', requestId: 'trace-logs.debug-probe' })).toMatchObject({
      level: 20,
      req: { method: 'GET', url: '/healthz' },
      res: { statusCode: 200 },
      route: '/healthz',
    });
  });
});

describe('request logs above info level', () => {
  const started = appLoggingAt('warn');

  it('builds no logger and no async context per request, and still logs warnings', async () => {
    const child = jest.spyOn(PinoLogger.root, 'child');
    const run = jest.spyOn(storage, 'run');
    const response = await fetch(`${started.url}/metrics`, {
      headers: { ...bearer(WRONG_KEY), 'x-request-id': 'trace-logs.3' },
    });
    expect(response.status).toBe(401);
    expect(await started.logs.line({ msg: 'rejected an invalid API key' })).toMatchObject({ level: 40, method: 'GET' });
    expect(child).not.toHaveBeenCalled();
    expect(run).not.toHaveBeenCalled();
    expect(started.logs.lines.filter((line) => line.msg === 'request completed')).toEqual([]);
  });
});
