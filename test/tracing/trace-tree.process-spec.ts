/**
 * OpenTelemetry traces on the wire (issue 29): an API and a worker as separate processes in
 * durable mode export OTLP/HTTP (protobuf) to a receiver in the test. One A2A request with a
 * `traceparent` makes one tree under the caller's trace across both processes: the request, the
 * enqueue, the job, the turn, its LLM calls, its upstream MCP tool call, its delegation to an
 * external A2A agent and their HTTP requests; the LLM provider, the upstream and the external agent
 * get a `traceparent` of that trace. A 2026-07-28 `/mcp` request
 * carrying it only in `_meta` continues it the same way. Log lines name the trace.
 */
import { randomBytes } from 'node:crypto';
import { type ServiceProcess, ServiceProcesses } from '../support/service-processes';
import { ScriptedLlmServer } from '../agents/support/scripted-llm-server';
import { killAllPeers, startPeer, type PeerAgent } from '../a2a-client/support/peer-process';
import { HttpTaskServer } from '../mcp-client/fixtures/http-task-server';
import { httpMcpServer } from '../mcp-client/support/mcp-app';
import { modernHeaders, modernMeta, rawMcp, rpc } from '../mcp-server/support/raw-mcp';
import { writeConfigFile } from '../support/config-file';
import { OtlpReceiver, type ReceivedSpan, SpanKind } from '../support/otlp-receiver';
import { bearer, TEST_API_KEY } from '../support/test-app';
import {
  createTestDatabase,
  deleteRedisKeys,
  type TestDatabase,
  testRedisPrefix,
  testRedisUrl,
} from '../support/test-database';

jest.setTimeout(60_000);

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const traceparent = (traceId: string, spanId: string) => `00-${traceId}-${spanId}-01`;
const traceIdOf = (header: unknown) => (typeof header === 'string' ? header.split('-')[1] : undefined);

/** Every span's parent is in the trace, but the root's, which is the caller's span. */
function expectOneTree(spans: ReceivedSpan[], callerSpanId: string): void {
  const ids = new Set(spans.map((span) => span.spanId));
  const roots = spans.filter((span) => !ids.has(span.parentSpanId ?? ''));
  expect(roots.map((span) => span.parentSpanId)).toEqual([callerSpanId]);
}

describe('traces across the API and worker processes', () => {
  let database: TestDatabase;
  let redisPrefix: string;
  let receiver: OtlpReceiver;
  let upstream: HttpTaskServer;
  let llm: ScriptedLlmServer;
  let peer: PeerAgent;
  let services: ServiceProcesses;
  let api: ServiceProcess;
  let worker: ServiceProcess;

  beforeAll(async () => {
    database = await createTestDatabase();
    redisPrefix = testRedisPrefix();
    [receiver, upstream, llm, peer] = await Promise.all([
      OtlpReceiver.start(),
      HttpTaskServer.start(),
      ScriptedLlmServer.start(),
      startPeer({ mode: 'v1' }),
    ]);
    const config = `
[outbound]
allow_hosts = ["127.0.0.1"]
${httpMcpServer('up', upstream.url)}
[[a2a.external_agents]]
name = "peer"
url = "${peer.url}"
[[agents]]
name = "adder"
tools = ["mcp_up_hold", "a2a_send"]
delegates = ["peer"]
[agents.executor]
type = "llm"
base_url = "${llm.baseUrl}"
model = "test-model"
`;
    services = new ServiceProcesses({
      SWITCHBOARD_CONFIG: writeConfigFile(config),
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      SWITCHBOARD_REDIS_PREFIX: redisPrefix,
      SWITCHBOARD_API_KEYS: `tester=${TEST_API_KEY}`,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    [api, worker] = await Promise.all([services.api('api'), services.worker('worker')]);
  });

  afterAll(async () => {
    await services?.stopAll();
    await Promise.all([receiver?.close(), upstream?.close(), llm?.close(), killAllPeers()]);
    if (redisPrefix) await deleteRedisKeys(redisPrefix);
    await database?.drop();
  });

  it('makes one tree under the caller’s trace from the A2A request to the upstream, across both processes', async () => {
    const [traceId, callerSpanId] = [hex(16), hex(8)];
    llm.play(
      {
        toolCalls: [
          { name: 'mcp_up_hold', arguments: {} },
          { name: 'a2a_send', arguments: { agent: 'peer', message: 'echo traced' } },
        ],
      },
      { tokens: ['held'] },
    );
    // A blocking send, answered once the turn ends: after the test releases the upstream's call.
    const answer = fetch(`${api.baseUrl}/a2a/agents/adder`, {
      method: 'POST',
      headers: {
        ...bearer(),
        'content-type': 'application/json',
        'a2a-version': '1.0',
        traceparent: traceparent(traceId, callerSpanId),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: { message: { messageId: hex(8), role: 'ROLE_USER', parts: [{ text: 'hold it' }] } },
      }),
    });
    await upstream.holdCalled(1);
    upstream.releaseHolds();
    expect(
      ((await (await answer).json()) as { result: { task: { status: { state: string } } } }).result.task.status.state,
    ).toBe('TASK_STATE_COMPLETED');

    const names = [
      'SendMessage',
      'send agent-turns',
      'process agent-turns',
      'invoke_agent adder',
      'chat test-model',
      'execute_tool mcp_up_hold',
      'tools/call hold',
      'execute_tool a2a_send',
      'invoke_agent peer',
    ];
    const spans = await services.explain(() =>
      receiver.waitFor(
        (all) => names.every((name) => all.some((span) => span.traceId === traceId && span.name === name)),
        20_000,
        names.join(', '),
      ),
    );
    const trace = spans.filter((span) => span.traceId === traceId);
    expectOneTree(trace, callerSpanId);
    expect(new Set(trace.map((span) => span.resource['switchboard.process.role']))).toEqual(new Set(['api', 'worker']));
    const named = (name: string) => trace.find((span) => span.name === name)!;
    expect(named('SendMessage')).toMatchObject({
      kind: SpanKind.SERVER,
      attributes: { 'rpc.method': 'SendMessage', 'switchboard.principal': 'tester' },
    });
    // Each turn's job (the agent's, then the delegated task's) is a child of its enqueue, and linked to it.
    const enqueues = trace.filter(({ name }) => name === 'send agent-turns').map(({ spanId }) => spanId);
    const jobs = trace.filter(({ name }) => name === 'process agent-turns');
    expect(jobs).toHaveLength(2);
    for (const job of jobs) {
      expect(enqueues).toContain(job.parentSpanId);
      expect(job.links).toEqual([{ traceId, spanId: job.parentSpanId }]);
    }
    expect(named('execute_tool mcp_up_hold').attributes).toMatchObject({
      'switchboard.tool.source': 'mcp:up',
      'switchboard.tool.outcome': 'ok',
    });
    expect(trace.filter((span) => span.kind === SpanKind.CLIENT && span.name === 'POST').length).toBeGreaterThanOrEqual(
      2,
    );
    // The peers are told of the trace: the model provider in its headers, the upstream in its headers and in _meta.
    expect(llm.requests.map(({ headers }) => traceIdOf(headers.traceparent))).toEqual([traceId, traceId]);
    expect(upstream.toolCallTraces.map(({ tool, header, meta }) => [tool, traceIdOf(header), traceIdOf(meta)])).toEqual(
      [['hold', traceId, traceId]],
    );
    const sends = (await peer.requests()).filter(({ method }) => method === 'POST');
    expect(sends.length).toBeGreaterThan(0);
    expect(sends.map(({ traceparent }) => traceIdOf(traceparent))).toEqual(sends.map(() => traceId));
    // The worker's log lines of the turn name the trace.
    expect(worker.hasLogged('agent turn ended', `"trace_id":"${traceId}"`)).toBe(true);
  });

  it('continues a trace a 2026-07-28 /mcp request carries only in _meta', async () => {
    const [traceId, callerSpanId] = [hex(16), hex(8)];
    const meta = { ...modernMeta(), traceparent: traceparent(traceId, callerSpanId) };
    const listed = await rawMcp(api.baseUrl, 'POST', rpc('tools/list', { _meta: meta }), modernHeaders('tools/list'));
    expect(listed.status).toBe(200);
    const spans = await receiver.waitFor((all) =>
      all.some((span) => span.traceId === traceId && span.name === 'tools/list'),
    );
    expect(
      spans.filter((span) => span.traceId === traceId).map(({ name, parentSpanId }) => [name, parentSpanId]),
    ).toEqual([['tools/list', callerSpanId]]);
  });
});
