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

describe('request logs at info level', () => {
  const started = appLoggingAt('info');
  it('logs each request once answered, with its request id', async () => {
    const response = await fetch(`${started.url}/metrics`, { headers: { ...bearer(), 'x-request-id': 'trace-logs.1' } });
    expect(response.status).toBe(200);
    expect(await started.logs.line({ msg: 'request completed', requestId: 'trace-logs.1' })).toMatchObject({
      level: 30,
      req: { method: 'GET', url: '/metrics' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
  });

  it('puts the request id on lines logged while handling the request', async () => {
    const response = await fetch(`${started.url}/metrics`, { headers: { ...bearer(WRONG_KEY), 'x-request-id': 'trace-logs.2' } });
    expect(response.status).toBe(401);
    expect(await started.logs.line({ msg: 'rejected an invalid API key' })).toMatchObject({ level: 40, requestId: 'trace-logs.2' });
  });
});

describe('request logs above info level', () => {
  const started = appLoggingAt('warn');

  it('builds no logger and no async context per request, and still logs warnings', async () => {
    const child = jest.spyOn(PinoLogger.root, 'child');
    const run = jest.spyOn(storage, 'run');
    const response = await fetch(`${started.url}/metrics`, { headers: { ...bearer(WRONG_KEY), 'x-request-id': 'trace-logs.3' } });
    expect(response.status).toBe(401);
    expect(await started.logs.line({ msg: 'rejected an invalid API key' })).toMatchObject({ level: 40, method: 'GET' });
    expect(child).not.toHaveBeenCalled();
    expect(run).not.toHaveBeenCalled();
    expect(started.logs.lines.filter((line) => line.msg === 'request completed')).toEqual([]);
  });
});
