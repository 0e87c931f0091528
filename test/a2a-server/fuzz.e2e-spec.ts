import { request as httpRequest } from 'node:http';
import { Client } from 'pg';
import { JOB_QUEUE, type JobQueue } from '../../src/queue/job-queue.interface';
import { QueueName } from '../../src/queue/queue.constants';
import { eventually } from '../support/eventually';
import { bearer } from '../support/test-app';
import type { TestDatabase } from '../support/test-database';
import { type DurableTestApp, startDurableTestApp } from '../support/durable-test-app';
import { type FuzzCase, fuzzCases } from './support/fuzz-cases';

const BODY_LIMIT = 64 * 1024;
const CONCURRENCY = 16;
const TIMEOUT_MS = 10_000;
const AGENTS = ['echo', 'slow', 'ask', 'broken', 'replier', 'picky'];
/** JSON-RPC 2.0's own codes and A2A's. */
const ERROR_CODES = new Set([
  -32700, -32600, -32601, -32602, -32603, -32001, -32002, -32003, -32004, -32005, -32006, -32007, -32008, -32009,
]);

interface Outcome {
  fuzz: FuzzCase;
  status?: number;
  contentType?: string;
  body?: string;
  /** The request got no complete answer: timeout, reset, closed early. */
  error?: string;
}

type RowCounts = Record<'tasks' | 'push_configs', number>;

const NO_ROWS: RowCounts = { tasks: 0, push_configs: 0 };

/**
 * One request on a raw HTTP client, so that paths, headers and bodies go out exactly as generated, on
 * a connection of its own: the server may drop a connection after answering a malformed request
 * line, and that must not fail whichever request would have reused it.
 */
function send(base: URL, fuzz: FuzzCase): Promise<Outcome> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: Omit<Outcome, 'fuzz'>) => {
      if (!settled) resolve({ fuzz, ...outcome });
      settled = true;
    };
    const failed = (error: NodeJS.ErrnoException) =>
      settle({
        error:
          error.name === 'AbortError'
            ? `no complete answer within ${TIMEOUT_MS} ms`
            : `${error.code ?? error.name}: ${error.message}`,
      });
    const headers = { ...fuzz.headers, ...(fuzz.body && { 'content-length': String(fuzz.body.length) }) };
    const { hostname: host, port } = base;
    try {
      const request = httpRequest(
        {
          host,
          port,
          method: fuzz.method,
          path: fuzz.path,
          headers,
          agent: false,
          signal: AbortSignal.timeout(TIMEOUT_MS),
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            settle({
              status: response.statusCode,
              contentType: response.headers['content-type'],
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          response.on('error', failed);
          response.on('close', () =>
            settle({ status: response.statusCode, error: 'connection closed before the answer ended' }),
          );
        },
      );
      request.on('error', failed);
      request.end(fuzz.body);
    } catch (error) {
      settle({ error: `the client refused to send it (a generator bug): ${(error as Error).message}` });
    }
  });
}

async function inParallel<T, R>(items: T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index]);
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Waits until none of `queues` holds a job that will still run or runs now. */
async function noJobsPending(queue: JobQueue, queues: QueueName[]): Promise<void> {
  await eventually(
    () => queue.counts(),
    (counts) => queues.every((name) => counts[name].waiting + counts[name].active + counts[name].delayed === 0),
  );
}

async function rowCounts(url: string): Promise<RowCounts> {
  const [counts] = await query<RowCounts>(
    url,
    `SELECT (SELECT count(*) FROM tasks)::int AS tasks, (SELECT count(*) FROM push_configs)::int AS push_configs`,
  );
  return counts;
}

/** Id, state and first message of a few tasks, to show what a wrongly taken send stored. */
function sampleTasks(url: string): Promise<unknown[]> {
  return query(url, `SELECT id, state, data->'history'->0 AS "firstMessage" FROM tasks ORDER BY created_at LIMIT 5`);
}

function isSse(outcome: Outcome): boolean {
  return /^text\/event-stream/.test(outcome.contentType ?? '');
}

function parsed(text: string | undefined): { value?: unknown; ok: boolean } {
  try {
    return { value: JSON.parse(text ?? ''), ok: true };
  } catch {
    return { ok: false };
  }
}

/** The JSON values carried by an SSE body's `data:` lines. */
function sseEvents(body: string): { value?: unknown; ok: boolean }[] {
  return body
    .split(/\r?\n\r?\n/)
    .map((event) =>
      event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .join('\n'),
    )
    .filter((data) => data.length > 0)
    .map((data) => parsed(data));
}

/** What is wrong with a JSON-RPC response object, if anything. */
function envelopeProblem(value: unknown, id: string | number | undefined): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON-RPC response object';
  const response = value as {
    jsonrpc?: unknown;
    id?: unknown;
    result?: unknown;
    error?: { code?: unknown; message?: unknown };
  };
  if (response.jsonrpc !== '2.0') return 'jsonrpc is not "2.0"';
  if (!('id' in response) || !(response.id === null || ['string', 'number'].includes(typeof response.id))) {
    return 'no id (string, number or null)';
  }
  if (id !== undefined && response.id !== id)
    return `id ${JSON.stringify(response.id)} instead of the request's ${JSON.stringify(id)}`;
  if ('result' in response === 'error' in response) return 'needs exactly one of result and error';
  if (!('error' in response)) return undefined;
  const { code, message } = response.error ?? {};
  if (typeof code !== 'number' || !ERROR_CODES.has(code))
    return `error code ${JSON.stringify(code)} is not a JSON-RPC or A2A code`;
  if (typeof message !== 'string') return 'error without a message';
  return undefined;
}

function isJsonAnswer(outcome: Outcome): boolean {
  return /^application\/([a-z0-9.+-]+\+)?json\b/.test(outcome.contentType ?? '') && parsed(outcome.body).ok;
}

function jsonRpcProblem(outcome: Outcome): string | undefined {
  const { fuzz } = outcome;
  if (fuzz.unknownAgent && outcome.status! >= 400 && outcome.status! < 500 && isJsonAnswer(outcome)) return undefined;
  const values = isSse(outcome) ? sseEvents(outcome.body ?? '') : [parsed(outcome.body)];
  if (values.length === 0) return 'an empty answer';
  for (const value of values) {
    const problem = value.ok ? envelopeProblem(value.value, fuzz.id) : 'not JSON';
    if (problem) return problem;
  }
  return undefined;
}

/** Did the server take a send it should have refused? */
function accepted(outcome: Outcome): boolean {
  if (!outcome.fuzz.send || outcome.status === undefined || outcome.status >= 300) return false;
  if (outcome.fuzz.protocol === 'http') return true;
  const values = isSse(outcome) ? sseEvents(outcome.body ?? '') : [parsed(outcome.body)];
  return values.some((value) => typeof value.value === 'object' && value.value !== null && 'result' in value.value);
}

function preview(text: string | Buffer | undefined, length = 240): string {
  return JSON.stringify(text === undefined ? '' : String(text).slice(0, length));
}

function explain(outcome: Outcome, reason?: string): string {
  const { fuzz } = outcome;
  const answer =
    outcome.error ?? `${outcome.status} ${outcome.contentType ?? '(no content-type)'} ${preview(outcome.body)}`;
  const headers = Object.entries(fuzz.headers)
    .filter(([name]) => name !== 'authorization')
    .map(([name, value]) => `${name}: ${preview(value, 60)}`)
    .join(', ');
  const request = `${fuzz.method} ${preview(fuzz.path, 160)} [${headers}] (${fuzz.note}) body ${preview(fuzz.body)}`;
  return `${request}\n    -> ${answer}${reason ? `\n    => ${reason}` : ''}`;
}

function tally<T>(items: T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return new Map([...counts].sort(([a], [b]) => a.localeCompare(b)));
}

const statusOf = (outcome: Outcome) => (outcome.error ? 'no answer' : String(outcome.status));

function statuses(outcomes: Outcome[]): string {
  return [...tally(outcomes, statusOf)].map(([status, n]) => `${status}×${n}`).join(' ');
}

/** Requests and answers per route and status, for failure messages. */
function distribution(outcomes: Outcome[]): string {
  const lines = [...tally(outcomes, (o) => o.fuzz.route)].map(([route, count]) => {
    return `  ${route.padEnd(58)} ${String(count).padStart(4)}  ${statuses(outcomes.filter((o) => o.fuzz.route === route))}`;
  });
  return `${outcomes.length} requests:\n${lines.join('\n')}\n  all statuses: ${statuses(outcomes)}`;
}

describe('A2A routes under fuzzing: malformed, truncated, oversized and wrong-typed requests (Postgres, Redis, BullMQ)', () => {
  let service: DurableTestApp;
  let database: TestDatabase;
  let url: string;
  let outcomes: Outcome[] = [];
  let rowsBefore: RowCounts;
  let rowsAfter: RowCounts;
  /** A few of the tasks written during the fuzz, if any: what got stored. */
  let strayTasks: unknown[] = [];
  // FUZZ_SEED=<n> draws another set of cases; the default keeps CI runs identical.
  const cases = fuzzCases(
    { agents: AGENTS, bodyLimit: BODY_LIMIT, auth: bearer() },
    Number(process.env.FUZZ_SEED ?? 0x5eed),
  );

  /** Fails with every offending request and the whole distribution, so that one run is enough to diagnose. */
  function expectNone(what: string, offending: Outcome[], reason?: (outcome: Outcome) => string | undefined): void {
    if (offending.length === 0) return;
    const listed = offending.slice(0, 40).map((o) => `  ${o.fuzz.route}: ${explain(o, reason?.(o))}`);
    const more = offending.length > listed.length ? `\n  ... and ${offending.length - listed.length} more` : '';
    throw new Error(`${offending.length} ${what}:\n${listed.join('\n')}${more}\n\n${distribution(outcomes)}`);
  }

  beforeAll(async () => {
    service = await startDurableTestApp({
      SWITCHBOARD_BODY_LIMIT_BYTES: String(BODY_LIMIT),
      SWITCHBOARD_RATE_LIMIT: '1000000',
    });
    ({ url, database } = service);
    rowsBefore = await rowCounts(database.url);
    // The SDK writes some refusals to the console ("Tenant mismatch", stream errors); the answers tell more.
    const quiet = ['warn', 'error'].map((level) =>
      jest.spyOn(console, level as 'warn' | 'error').mockImplementation(() => undefined),
    );
    try {
      const base = new URL(url);
      outcomes = await inParallel(cases, CONCURRENCY, (fuzz) => send(base, fuzz));
    } finally {
      for (const spy of quiet) spy.mockRestore();
    }
    // A send taken by mistake runs its turn on the in-process worker, which may write just after the answer.
    await noJobsPending(service.app.get<JobQueue>(JOB_QUEUE), [QueueName.AgentTurns, QueueName.PushDeliveries]);
    rowsAfter = await rowCounts(database.url);
    if (rowsAfter.tasks > 0) strayTasks = await sampleTasks(database.url);
  }, 120_000);

  afterAll(() => service?.close());

  it('sends at least 2,000 requests, spread over every route', () => {
    const perRoute = tally(outcomes, (o) => o.fuzz.route);
    expect(outcomes.length).toBeGreaterThanOrEqual(2000);
    expect(perRoute.size).toBeGreaterThanOrEqual(30);
    expect(Math.min(...perRoute.values())).toBeGreaterThanOrEqual(30);
  });

  it('answers every request, none with a 5xx', () => {
    expectNone(
      'requests got a 5xx or no complete answer',
      outcomes.filter((o) => o.error !== undefined || o.status! >= 500),
    );
  });

  it('answers every JSON-RPC request with a JSON-RPC error object (or a result) in the spec code ranges, echoing its id', () => {
    expectNone(
      'JSON-RPC requests got something other than a JSON-RPC response',
      outcomes.filter((o) => o.fuzz.protocol === 'json-rpc' && !o.error && jsonRpcProblem(o) !== undefined),
      jsonRpcProblem,
    );
  });

  it('answers every REST, seed and card 4xx with a JSON body', () => {
    expectNone(
      'HTTP requests got a 4xx without a JSON body',
      outcomes.filter((o) => o.fuzz.protocol === 'http' && o.status! >= 400 && o.status! < 500 && !isJsonAnswer(o)),
    );
  });

  it('refuses every malformed send', () => {
    expectNone('malformed sends were taken', outcomes.filter(accepted));
  });

  it('writes no task, task event or push config row', () => {
    expect(rowsBefore).toEqual(NO_ROWS);
    expect({ rows: rowsAfter, someTasks: strayTasks }).toEqual({ rows: NO_ROWS, someTasks: [] });
  });

  it('is still up and healthy afterwards', async () => {
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });
});
