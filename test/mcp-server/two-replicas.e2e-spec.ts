/**
 * Two API instances sharing one Postgres database and one Redis prefix, as two replicas behind a
 * load balancer: an MCP client's requests land on either, and it keeps working.
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { TEST_AGENTS_TOML } from '../support/test-agents';
import { writeConfigFile } from '../support/config-file';
import { bearer, startTestApp, testConfig } from '../support/test-app';
import {
  createTestDatabase,
  deleteRedisKeys,
  type TestDatabase,
  testRedisPrefix,
  testRedisUrl,
} from '../support/test-database';
import { TaskState } from '@a2a-js/sdk';
import { expectResumedCall } from './support/cutting-fetch';
import {
  cancelOnFirstChunk,
  connectV1,
  connectV2,
  expectCanceled,
  TASK_ID_MESSAGE,
  taskWithMessage,
  textOf,
} from './support/mcp-clients';

type Message = { id?: unknown; method?: string; params?: { message?: string } };

/** A POST to `/mcp` of a 2025-era session, as raw as a client sends it; the answer's SSE messages as they come. */
async function* postInSession(baseUrl: string, sessionId: string, message: object): AsyncGenerator<Message> {
  const response = await fetch(new URL('/mcp', baseUrl), {
    method: 'POST',
    headers: {
      ...bearer(),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify(message),
  });
  // A request is answered on a stream (empty when it was canceled before it was served); a notification is accepted.
  expect({
    status: response.status,
    stream: response.headers.get('content-type')?.startsWith('text/event-stream') ?? false,
  }).toEqual('id' in message ? { status: 200, stream: true } : { status: 202, stream: false });
  if (!response.body) return;
  let buffered = '';
  for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    // An empty `data:` is a priming event: only a position to resume from.
    for (const line of lines)
      if (line.startsWith('data:') && line.slice(5).trim()) yield JSON.parse(line.slice(5)) as Message;
  }
}

async function drain(messages: AsyncGenerator<Message>): Promise<Message[]> {
  const all: Message[] = [];
  for await (const message of messages) all.push(message);
  return all;
}

function cancelOf(requestId: number): object {
  return { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'test' } };
}

/** A fetch that sends `tools/call` requests to replica A and everything else (initialize, list, cancel, DELETE) to B. */
function splitFetch(a: string, b: string): typeof fetch {
  return async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    const toA = typeof init?.body === 'string' && init.body.includes('"tools/call"');
    const target = new URL(url.pathname + url.search, toA ? a : b);
    return fetch(target, init);
  };
}

/** A fetch that alternates replicas on every request. */
function roundRobinFetch(urls: string[]): typeof fetch {
  let next = 0;
  return async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    return fetch(new URL(url.pathname + url.search, urls[next++ % urls.length]), init);
  };
}

describe('MCP clients across two API replicas', () => {
  let database: TestDatabase;
  let redisPrefix: string;
  const apps: NestFastifyApplication[] = [];
  let a: string;
  let b: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    redisPrefix = testRedisPrefix();
    const config = testConfig({
      SWITCHBOARD_CONFIG: writeConfigFile(TEST_AGENTS_TOML),
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      SWITCHBOARD_REDIS_PREFIX: redisPrefix,
    });
    for (const _ of [0, 1]) {
      const { app } = await startTestApp(config);
      apps.push(app);
    }
    [a, b] = await Promise.all(apps.map((app) => app.getUrl()));
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    if (redisPrefix) await deleteRedisKeys(redisPrefix);
    await database?.drop();
  });

  it('keeps a 2025-era session whose requests land on both replicas', async () => {
    const { client, transport } = await connectV1(b, { fetch: splitFetch(a, b) });
    expect(transport.sessionId).toBeDefined();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('switchboard_agent_echo');
    const result = await client.callTool({ name: 'switchboard_agent_echo', arguments: { message: 'across replicas' } });
    expect(textOf(result)).toBe('across replicas');
    await transport.terminateSession();
    await client.close();
  });

  it('cancels, from replica B, a call running on replica A', async () => {
    const { client } = await connectV1(b, { fetch: splitFetch(a, b) });
    const cancel = cancelOnFirstChunk();
    await expect(
      client.callTool({ name: 'switchboard_agent_slow', arguments: { message: '0123456789' } }, undefined, cancel),
    ).rejects.toThrow();
    await expectCanceled(b, cancel.taskId());
    await client.close();
  });

  it('serves a 2026-07-28 client whose requests alternate between replicas', async () => {
    const client = await connectV2(a, { fetch: roundRobinFetch([a, b]) });
    for (const message of ['one', 'two', 'three']) {
      expect(textOf(await client.callTool({ name: 'switchboard_agent_echo', arguments: { message } }))).toBe(message);
    }
    await client.close();
  });

  it('sends no response to a call canceled from the other replica, and cancels its task', async () => {
    const { client, transport } = await connectV1(b);
    const call = postInSession(a, transport.sessionId!, {
      jsonrpc: '2.0',
      id: 41,
      method: 'tools/call',
      params: {
        name: 'switchboard_agent_slow',
        arguments: { message: 'cancel me from b' },
        _meta: { progressToken: 'p41' },
      },
    });
    const first = (await call.next()).value as Message;
    const taskId = TASK_ID_MESSAGE.exec(first.params?.message ?? '')?.[1];
    await drain(postInSession(b, transport.sessionId!, cancelOf(41)));
    const rest = await drain(call);
    expect(rest.filter((message) => message.id === 41)).toEqual([]);
    await expectCanceled(b, taskId);
    await client.close();
  });

  it('never serves a call whose cancel, sent to the other replica, came first', async () => {
    const { client, transport } = await connectV1(b);
    await drain(postInSession(b, transport.sessionId!, cancelOf(42)));
    const text = `canceled first ${Date.now()}`;
    const answer = await drain(
      postInSession(a, transport.sessionId!, {
        jsonrpc: '2.0',
        id: 42,
        method: 'tools/call',
        params: { name: 'switchboard_agent_echo', arguments: { message: text } },
      }),
    );
    expect(answer).toEqual([]);
    // The same id in another session is another request: it runs.
    const other = await connectV1(b);
    const served = await drain(
      postInSession(a, other.transport.sessionId!, {
        jsonrpc: '2.0',
        id: 42,
        method: 'tools/call',
        params: { name: 'switchboard_agent_echo', arguments: { message: text } },
      }),
    );
    expect(served.at(-1)).toMatchObject({ id: 42, result: { content: [{ type: 'text', text }] } });
    // It ran as a task of its own.
    expect((await taskWithMessage(b, 'echo', text, TaskState.TASK_STATE_COMPLETED))?.status?.state).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );
    await Promise.all([client.close(), other.client.close()]);
  });

  it('resumes, on the other replica, an answer stream that broke mid-call, missing no event (Last-Event-ID)', async () => {
    await expectResumedCall(a, b);
  });

  it('primes the answer stream of a call with an event id, and refuses to resume it for another session', async () => {
    const first = await connectV1(b);
    const response = await fetch(new URL('/mcp', a), {
      method: 'POST',
      headers: {
        ...bearer(),
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': first.transport.sessionId!,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 52,
        method: 'tools/call',
        params: { name: 'switchboard_agent_echo', arguments: { message: 'primed' } },
      }),
    });
    const text = await response.text();
    // A priming event first: an id to resume from, and how soon to come back.
    expect(text).toMatch(/^id: .+\nretry: \d+\ndata: \n/);
    const eventId = /^id: (.+)$/m.exec(text)?.[1];
    const other = await connectV1(b);
    const resumed = await fetch(new URL('/mcp', b), {
      headers: {
        ...bearer(),
        accept: 'text/event-stream',
        'mcp-session-id': other.transport.sessionId!,
        'mcp-protocol-version': '2025-11-25',
        'last-event-id': eventId!,
      },
    });
    expect(resumed.status).toBe(404);
    await Promise.all([first.client.close(), other.client.close()]);
  });

  it('answers what cannot run long (a ping) without a stream to resume', async () => {
    const { client, transport } = await connectV1(b);
    const response = await fetch(new URL('/mcp', a), {
      method: 'POST',
      headers: {
        ...bearer(),
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': transport.sessionId!,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 53, method: 'ping' }),
    });
    const text = await response.text();
    expect(text).toContain('"id":53');
    expect(text).not.toMatch(/^id: /m);
    await client.close();
  });
});
