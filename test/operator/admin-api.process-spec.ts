/**
 * The admin JSON API on a durable service (real Postgres, Redis and BullMQ; the worker in the API
 * process): who may call it (admin keys, the console's cookie and its CSRF check), every owner's
 * tasks (filters, counts, cancel), task activity (a turn's tool call, a webhook delivery), the live
 * change feed and an MCP server's reconnect.
 */
import { TEST_AGENTS_TOML } from '../support/test-agents';
import { ScriptedLlmServer } from '../agents/support/scripted-llm-server';
import { stdioServer, toolsListed } from '../mcp-client/support/mcp-app';
import { childProcesses, EVERYTHING_SERVER } from '../mcp-client/support/mcp-servers';
import { type DurableTestApp, startDurableTestApp } from '../support/durable-test-app';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import { TEST_API_KEY } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { MCP_TOOL_SOURCE, type McpToolSource } from '../../src/mcp-client/mcp-tool-source.interface';
import { adminCall, SseReader, sendMessage } from './support/admin-client';
import type { Json } from '../support/json';

const OPS_KEY = 'ops-key-0123456789abcdef';
const OTHER_KEY = 'other-key-0123456789abcd';
const SECRET_ARGUMENT = 'argument-that-must-not-be-recorded';

function config(llmBaseUrl: string): string {
  return `
[outbound]
allow_hosts = ["127.0.0.1"]

[[auth.rules]]
keys = ["ops"]
admin = true
${TEST_AGENTS_TOML}
[[agents]]
name = "assistant"
description = "An LLM agent with server-everything's echo"
tools = ["mcp_everything_echo"]
[agents.executor]
type = "llm"
base_url = "${llmBaseUrl}"
model = "test-model"
${stdioServer('everything', EVERYTHING_SERVER, ['stdio'])}`;
}

describe('admin API (durable)', () => {
  let llm: ScriptedLlmServer;
  let service: DurableTestApp;
  let url: string;
  const admin = (path: string, options: Parameters<typeof adminCall>[2] = {}) =>
    adminCall(url, path, { key: OPS_KEY, ...options });

  beforeAll(async () => {
    llm = await ScriptedLlmServer.start();
    service = await startDurableTestApp({
      SWITCHBOARD_CONFIG: writeConfigFile(config(llm.baseUrl)),
      SWITCHBOARD_API_KEYS: `tester=${TEST_API_KEY},ops=${OPS_KEY},other=${OTHER_KEY}`,
    });
    url = service.url;
    await toolsListed(service.app.get<McpToolSource>(MCP_TOOL_SOURCE), ['mcp_everything_echo']);
  });

  afterAll(async () => {
    await service?.close();
    await llm?.close();
  });

  describe('access', () => {
    it('answers admin keys, refuses other keys with 403 naming the setting, and callers without credentials with 401', async () => {
      expect((await admin('/api/admin/overview')).status).toBe(200);
      const refused = await adminCall(url, '/api/admin/overview', { key: TEST_API_KEY });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({
        statusCode: 403,
        error: 'Forbidden',
        message: expect.stringContaining('admin = true'),
      });
      expect((await adminCall(url, '/api/admin/tasks')).status).toBe(401);
      expect(
        (await adminCall(url, '/api/mcp/servers/everything/reconnect', { method: 'POST', key: TEST_API_KEY })).status,
      ).toBe(403);
    });

    it("takes the console's cookie as the key under /api/admin only, and refuses a change it carries without a same-origin Origin", async () => {
      const cookie = (key: string) => ({ cookie: `theme=dark; switchboard_console=${encodeURIComponent(key)}` });
      expect((await adminCall(url, '/api/admin/overview', { headers: cookie(OPS_KEY) })).status).toBe(200);
      expect((await adminCall(url, '/api/admin/overview', { headers: cookie(TEST_API_KEY) })).status).toBe(403);
      expect((await adminCall(url, '/api/admin/overview', { headers: cookie('not-a-key-0123456789abc') })).status).toBe(
        401,
      );
      expect((await adminCall(url, '/api/mcp/servers', { headers: cookie(OPS_KEY) })).status).toBe(401);
      const post = (headers: Record<string, string>) =>
        adminCall(url, '/api/admin/tasks/no-such-task/cancel', { method: 'POST', headers });
      const crossSite = await post({ ...cookie(OPS_KEY), origin: 'https://evil.example' });
      expect(crossSite).toMatchObject({ status: 403, body: { message: expect.stringContaining('same-origin') } });
      expect((await post(cookie(OPS_KEY))).status).toBe(403);
      expect((await post({ ...cookie(OPS_KEY), origin: url })).status).toBe(404);
      // A bearer key is no ambient credential: no Origin needed.
      expect((await admin('/api/admin/tasks/no-such-task/cancel', { method: 'POST' })).status).toBe(404);
    });
  });

  describe("every owner's tasks", () => {
    let mine: Json;
    let theirs: Json;

    beforeAll(async () => {
      mine = await sendMessage(url, 'echo', TEST_API_KEY, 'hello');
      theirs = await sendMessage(url, 'ask', OTHER_KEY, 'weather?');
    });

    it('lists them newest first, filtered by owner, agent, state and age, with their agent and owner', async () => {
      const ids = async (query: string) =>
        (await admin(`/api/admin/tasks${query}`)).body.tasks.map((task: { id: string }) => task.id);
      const { body } = await admin('/api/admin/tasks');
      expect(body.tasks.slice(0, 2).map((task: { id: string }) => task.id)).toEqual([theirs.id, mine.id]);
      expect(body.tasks[0]).toMatchObject({
        id: theirs.id,
        contextId: theirs.contextId,
        state: 'TASK_STATE_INPUT_REQUIRED',
        agent: 'ask',
        owner: 'other',
        statusText: 'Which city?',
      });
      expect(await ids('?owner=other')).toEqual([theirs.id]);
      expect(await ids('?agent=echo')).toEqual([mine.id]);
      expect(await ids('?state=TASK_STATE_COMPLETED&owner=tester')).toEqual([mine.id]);
      expect(await ids('?state=input-required')).toEqual([theirs.id]);
      expect(await ids('?newerThan=3600&owner=other')).toEqual([theirs.id]);
      expect(await ids('?olderThan=3600')).toEqual([]);
      expect((await admin('/api/admin/tasks?state=sleeping')).status).toBe(400);
      expect((await admin('/api/admin/tasks?pageToken=nonsense')).status).toBe(400);
    });

    it('counts them by state in the overview, beside the processes and queues', async () => {
      const { body } = await admin('/api/admin/overview');
      expect(body.tasks.byState).toMatchObject({
        TASK_STATE_INPUT_REQUIRED: expect.any(Number),
        TASK_STATE_COMPLETED: expect.any(Number),
      });
      expect(body.tasks.byState.TASK_STATE_INPUT_REQUIRED).toBeGreaterThanOrEqual(1);
      expect(body.processes).toEqual([
        expect.objectContaining({ role: 'api', pid: process.pid, version: expect.any(String) }),
      ]);
      expect(body.queues['agent-turns']).toEqual({
        waiting: expect.any(Number),
        active: expect.any(Number),
        delayed: expect.any(Number),
        failed: expect.any(Number),
      });
      expect(body.queueWait['agent-turns']).toEqual(expect.any(Number));
      expect(body.errors).toMatchObject({ turnsFailedLastHour: expect.any(Number), turnsLastHour: expect.any(Number) });
      expect(body.errors.turnsLastHour).toBeGreaterThanOrEqual(2);
    });

    it("cancels another owner's task, as its owner then sees it, and answers 409 once it has ended", async () => {
      const canceled = await admin(`/api/admin/tasks/${theirs.id}/cancel`, { method: 'POST' });
      expect(canceled).toMatchObject({
        status: 200,
        body: { task: { id: theirs.id, status: { state: 'TASK_STATE_CANCELED' } }, owner: 'other', agent: 'ask' },
      });
      const again = await admin(`/api/admin/tasks/${theirs.id}/cancel`, { method: 'POST' });
      expect(again).toMatchObject({
        status: 409,
        body: { statusCode: 409, message: expect.stringContaining('ended') },
      });
      expect((await admin(`/api/admin/tasks/${mine.id}/cancel`, { method: 'POST' })).status).toBe(409);
      const owners = await fetch(`${url}/a2a/agents/ask`, {
        method: 'POST',
        headers: { authorization: `Bearer ${OTHER_KEY}`, 'content-type': 'application/json', 'A2A-Version': '1.0' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: theirs.id } }),
      });
      expect(((await owners.json()) as { result: { status: { state: string } } }).result.status.state).toBe(
        'TASK_STATE_CANCELED',
      );
    });

    it('answers 404 JSON for a task no owner has', async () => {
      expect(await admin('/api/admin/tasks/no-such-task')).toMatchObject({
        status: 404,
        body: { statusCode: 404, message: expect.stringContaining('no-such-task') },
      });
    });
  });

  describe('activity', () => {
    it("records a turn's tool call: the tool, its server, outcome and duration, never its arguments or result", async () => {
      llm.play(
        { toolCalls: [{ name: 'mcp_everything_echo', arguments: { message: SECRET_ARGUMENT } }] },
        { tokens: ['done'] },
      );
      const task = await sendMessage(url, 'assistant', TEST_API_KEY, 'echo something');
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      const { body } = await eventually(
        () => admin(`/api/admin/tasks/${task.id}`),
        ({ body }) => body.activity?.length > 0,
      );
      expect(body).toMatchObject({ agent: 'assistant', owner: 'tester', task: { id: task.id } });
      expect(body.activity).toEqual([
        {
          at: expect.any(String),
          kind: 'tool_call',
          summary: 'mcp_everything_echo (mcp: everything)',
          durationMs: expect.any(Number),
          outcome: 'ok',
          detail: { tool: 'mcp_everything_echo', source: 'mcp', server: 'everything' },
        },
      ]);
      expect(JSON.stringify(body.activity)).not.toContain(SECRET_ARGUMENT);
      // The timeline has the call where it happened: between the turn's start and its end.
      const timeline = (body.timeline as { kind: string; state?: string; at: string }[]).map(
        (entry) => entry.state ?? entry.kind,
      );
      expect(timeline.slice(0, 3)).toEqual(['message', 'TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']);
      expect(timeline.indexOf('tool_call')).toBeGreaterThan(2);
      expect(timeline.at(-1)).toBe('TASK_STATE_COMPLETED');
      expect(body.timeline.every((entry: { at?: string }) => entry.at)).toBe(true);
    });

    it('records each webhook delivery attempt with the host alone and the HTTP status', async () => {
      const receiver = await WebhookReceiver.start({ refuseFirst: 1 });
      try {
        const hookUrl = `${receiver.url}?token=secret-query`;
        const task = await sendMessage(url, 'echo', TEST_API_KEY, 'hi', {
          taskPushNotificationConfig: { url: hookUrl, token: 'tok' },
        });
        const { body } = await eventually(
          () => admin(`/api/admin/tasks/${task.id}`),
          ({ body }) => body.activity?.some((entry: { outcome: string }) => entry.outcome === 'HTTP 204'),
          20_000,
        );
        const deliveries = body.activity.filter((entry: { kind: string }) => entry.kind === 'webhook_delivery');
        const host = new URL(receiver.url).host;
        expect(deliveries[0]).toMatchObject({
          summary: expect.stringContaining(host),
          outcome: expect.stringMatching(/^HTTP 5\d\d$/),
          detail: { host, attempt: 1 },
        });
        expect(deliveries.at(-1)).toMatchObject({
          outcome: 'HTTP 204',
          durationMs: expect.any(Number),
          detail: { host, configId: expect.any(String) },
        });
        expect(JSON.stringify(body.activity)).not.toMatch(/\/hook|secret-query/);
      } finally {
        receiver.close();
      }
    });
  });

  describe('live', () => {
    it("streams each task's change of state as it is written", async () => {
      const changes = await SseReader.open(`${url}/api/admin/tasks/changes`, { authorization: `Bearer ${OPS_KEY}` });
      try {
        expect(changes.response.headers.get('content-type')).toContain('text/event-stream');
        const task = await sendMessage(url, 'echo', OTHER_KEY, 'live');
        const change = await changes.next((data) => data.taskId === task.id && data.state === 'TASK_STATE_COMPLETED');
        expect(change).toEqual({
          taskId: task.id,
          state: 'TASK_STATE_COMPLETED',
          agent: 'echo',
          owner: 'other',
          updatedAt: expect.any(String),
        });
      } finally {
        changes.close();
      }
    });

    it("streams a task's snapshot, then its events and activity as they come", async () => {
      const task = await sendMessage(url, 'ask', TEST_API_KEY, 'first');
      const timeline = await SseReader.open(`${url}/api/admin/tasks/${task.id}/events`, {
        authorization: `Bearer ${OPS_KEY}`,
      });
      try {
        expect(await timeline.next(() => true)).toMatchObject({
          kind: 'snapshot',
          detail: { task: { id: task.id }, agent: 'ask' },
        });
        await admin(`/api/admin/tasks/${task.id}/cancel`, { method: 'POST' });
        const event = await timeline.next(
          (data) => data.kind === 'event' && data.event.statusUpdate?.status?.state === 'TASK_STATE_CANCELED',
        );
        expect(event.event.statusUpdate.taskId).toBe(task.id);
      } finally {
        timeline.close();
      }
    });
  });

  describe('MCP reconnect', () => {
    it("drops and reopens the server's connection on this replica, saying which; 404 for an unknown server", async () => {
      const before = childProcesses(EVERYTHING_SERVER);
      expect(before).toHaveLength(1);
      const answer = await admin('/api/mcp/servers/everything/reconnect', { method: 'POST' });
      const { body: overview } = await admin('/api/admin/overview');
      expect(answer).toEqual({ status: 202, body: { reconnecting: true, replica: overview.processes[0].id } });
      await eventually(
        async () => childProcesses(EVERYTHING_SERVER),
        (pids) => pids.length === 1 && pids[0] !== before[0],
      );
      await eventually(
        () => admin('/api/admin/mcp-servers'),
        ({ body }) => body.configured?.[0]?.status?.state === 'connected',
      );
      expect(await admin('/api/mcp/servers/nowhere/reconnect', { method: 'POST' })).toMatchObject({
        status: 404,
        body: { statusCode: 404, message: expect.stringContaining('nowhere') },
      });
      expect((await admin('/api/admin/mcp-servers/everything/reconnect', { method: 'POST' })).status).toBe(202);
    });
  });
});
