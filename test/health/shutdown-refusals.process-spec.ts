/**
 * A new request to an API that is shutting down (draining the calls in flight) is refused 503 with
 * `Retry-After`, in the form of the face it came to: a JSON-RPC error on the A2A JSON-RPC routes
 * and `/mcp`, a JSON body elsewhere. Raw requests against a real API process kept draining by a
 * stream that follows a long turn on a real worker.
 */
import { randomUUID } from 'node:crypto';
import { type ServiceProcess, ServiceProcesses, within } from '../support/service-processes';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import { bearer } from '../support/test-app';
import {
  createTestDatabase,
  deleteRedisKeys,
  type TestDatabase,
  testRedisPrefix,
  testRedisUrl,
} from '../support/test-database';

jest.setTimeout(60_000);

const LONG_TURN = `
[[agents]]
name = "long"
[agents.executor]
type = "script"
steps = [{ status = "working" }, { delay_ms = 120000 }, { status = "completed", text = "done" }]
`;
const RETRY_AFTER = '5';
const SHUTTING_DOWN = /shutting down/;

interface RawAnswer {
  status: number;
  retryAfter: string | null;
  contentType: string | null;
  body: unknown;
}

async function raw(url: string, init: RequestInit = {}): Promise<RawAnswer> {
  const response = await fetch(url, { ...init, headers: { ...bearer(), ...(init.headers as Record<string, string>) } });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    contentType: response.headers.get('content-type'),
    body: await response.json(),
  };
}

function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return raw(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** A v1.0 JSON-RPC streamed send whose client stays until `leave()`: its first event has arrived when this resolves. */
async function streamThatStays(api: ServiceProcess): Promise<{ leave: () => void }> {
  const client = new AbortController();
  const response = await fetch(`${api.baseUrl}/a2a/agents/long`, {
    method: 'POST',
    headers: { ...bearer(), 'content-type': 'application/json', accept: 'text/event-stream', 'a2a-version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendStreamingMessage',
      params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'wait' }] } },
    }),
    signal: client.signal,
  });
  const reader = response.body!.getReader();
  await reader.read();
  return { leave: () => client.abort() };
}

describe('new requests while the API shuts down', () => {
  let database: TestDatabase;
  const redisPrefix = testRedisPrefix();
  let services: ServiceProcesses;

  beforeAll(async () => {
    database = await createTestDatabase();
    services = new ServiceProcesses({
      SWITCHBOARD_CONFIG: writeConfigFile(LONG_TURN),
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      SWITCHBOARD_REDIS_PREFIX: redisPrefix,
    });
    await services.worker('worker');
  });

  afterAll(async () => {
    await services?.stopAll();
    await deleteRedisKeys(redisPrefix);
    await database?.drop();
  });

  it('are refused 503 with Retry-After, as a JSON-RPC error on JSON-RPC routes and every verb of /mcp, as a JSON body elsewhere', async () => {
    const api = await services.api('api');
    const stream = await streamThatStays(api);
    const exited = api.stop();
    await eventually(
      () =>
        fetch(`${api.baseUrl}/healthz`).then(
          (response) => response.status,
          () => 0,
        ),
      (status) => status === 503,
    );

    const sendMessage = {
      jsonrpc: '2.0',
      id: 7,
      method: 'SendMessage',
      params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
    };
    const jsonRpc = {
      'POST /a2a': await postJson(`${api.baseUrl}/a2a`, sendMessage, { 'a2a-version': '1.0' }),
      'POST /a2a/agents/long': await postJson(`${api.baseUrl}/a2a/agents/long`, sendMessage, { 'a2a-version': '1.0' }),
      'POST /mcp': await postJson(
        `${api.baseUrl}/mcp`,
        { jsonrpc: '2.0', id: 3, method: 'tools/list' },
        { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      ),
      'GET /mcp': await raw(`${api.baseUrl}/mcp`, {
        headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': 'any' },
      }),
      'DELETE /mcp': await raw(`${api.baseUrl}/mcp`, {
        method: 'DELETE',
        headers: { 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': 'any' },
      }),
    };
    const plain = {
      'GET /healthz': await raw(`${api.baseUrl}/healthz`),
      'POST /a2a/rest/agents/long/message:send': await postJson(
        `${api.baseUrl}/a2a/rest/agents/long/message:send`,
        sendMessage.params,
        {
          'a2a-version': '1.0',
        },
      ),
      'GET /api/admin/overview': await raw(`${api.baseUrl}/api/admin/overview`),
    };

    await services.explain(async () => {
      for (const [route, answer] of Object.entries(jsonRpc)) {
        expect({ route, ...answer }).toEqual({
          route,
          status: 503,
          retryAfter: RETRY_AFTER,
          contentType: expect.stringMatching(/^application\/json/),
          body: { jsonrpc: '2.0', id: null, error: { code: -32603, message: expect.stringMatching(SHUTTING_DOWN) } },
        });
      }
      for (const [route, answer] of Object.entries(plain)) {
        expect({ route, ...answer }).toEqual({
          route,
          status: 503,
          retryAfter: RETRY_AFTER,
          contentType: expect.stringMatching(/^application\/json/),
          body: { statusCode: 503, error: 'Service Unavailable', message: expect.stringMatching(SHUTTING_DOWN) },
        });
      }
      stream.leave();
      expect(await within(exited, 20_000, 'the API exiting once the stream\u2019s client has left')).toBe(0);
    });
  });
});
