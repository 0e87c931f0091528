/**
 * What issue 43 asks to be shown, on real processes sharing Postgres and Redis (two API replicas and
 * a worker): MCP servers (server-everything over stdio and over HTTP) added through replica A are
 * connected on B, whose open MCP session is told its tool list changed and calls the new tool, and
 * whose LLM agent's next turn on the worker calls it; removed, their calls fail clearly and their
 * stdio processes end on every process. A key created on A authenticates on B and, deleted, is
 * refused there; an expired key is refused; a rule added on A narrows what a caller lists on B.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import type { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { ScriptedLlmServer } from '../agents/support/scripted-llm-server';
import { OPERATOR_KEY, OPERATOR_RULE_TOML } from '../console/support/operator-key';
import { EVERYTHING_SERVER, killProcess, startEverythingServer } from '../mcp-client/support/mcp-servers';
import { sendMessage } from '../operator/support/admin-client';
import { connectV1, textOf } from '../mcp-server/support/mcp-clients';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import { freePort } from '../support/free-port';
import type { Json } from '../support/json';
import { type ServiceProcess, ServiceProcesses } from '../support/service-processes';
import { bearer, TEST_API_KEY } from '../support/test-app';
import {
  createTestDatabase,
  deleteRedisKeys,
  type TestDatabase,
  testRedisPrefix,
  testRedisUrl,
} from '../support/test-database';

const EXPIRED_KEY = 'expired-key-0123456789abcdef';

describe('a live catalog across API replicas and a worker', () => {
  let database: TestDatabase;
  let redisPrefix: string;
  let llm: ScriptedLlmServer;
  let httpServer: ChildProcess;
  let httpUrl: string;
  let services: ServiceProcesses;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let worker: ServiceProcess;
  let session: ClientV1;
  let toolListChanges = 0;
  let resourceListChanges = 0;

  const admin = (service: ServiceProcess, method: string, path: string, body?: Json) =>
    fetch(`${service.baseUrl}/api/admin${path}`, {
      method,
      headers: { ...bearer(OPERATOR_KEY), ...(body && { 'content-type': 'application/json' }) },
      body: body && JSON.stringify(body),
    });
  const toolNames = async (client: ClientV1) => (await client.listTools()).tools.map(({ name }) => name);
  /** Live `server-everything stdio` processes started by `service`. */
  const stdioChildren = (service: ServiceProcess) => {
    try {
      return execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(service.pid)], { encoding: 'utf8' })
        .split('\n')
        .filter((line) => line.includes(EVERYTHING_SERVER) && !line.includes('<defunct>'));
    } catch {
      return [];
    }
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    redisPrefix = testRedisPrefix();
    llm = await ScriptedLlmServer.start();
    const port = await freePort();
    httpServer = await startEverythingServer('streamableHttp', port);
    httpUrl = `http://127.0.0.1:${port}/mcp`;
    services = new ServiceProcesses({
      SWITCHBOARD_CONFIG: writeConfigFile(`${OPERATOR_RULE_TOML}
[catalog]
allow_stdio_from_api = true
[outbound]
allow_hosts = ["127.0.0.1"]
[[auth.api_keys]]
name = "expired"
key = "${EXPIRED_KEY}"
expires_at = "2001-01-01T00:00:00Z"
[[agents]]
name = "assistant"
tools = ["mcp_*"]
[agents.executor]
type = "llm"
base_url = "${llm.baseUrl}"
model = "scripted"
`),
      SWITCHBOARD_API_KEYS: `tester=${TEST_API_KEY},operator=${OPERATOR_KEY}`,
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      SWITCHBOARD_REDIS_PREFIX: redisPrefix,
    });
    [a, b, worker] = await Promise.all([services.api('a'), services.api('b'), services.worker('worker')]);
    ({ client: session } = await connectV1(b.baseUrl, {
      key: OPERATOR_KEY,
      listChanged: {
        tools: { onChanged: () => void (toolListChanges += 1) },
        resources: { onChanged: () => void (resourceListChanges += 1) },
      },
    }));
  });

  afterAll(async () => {
    await session?.close();
    await services?.stopAll();
    if (httpServer) await killProcess(httpServer);
    await llm?.close();
    await deleteRedisKeys(redisPrefix);
    await database?.drop();
  });

  it('connects MCP servers added on A on B, tells its session, and the worker runs the new tools', () =>
    services.explain(async () => {
      const stdio = {
        name: 'everything',
        transport: { type: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
      };
      expect((await admin(a, 'POST', '/mcp-servers', stdio)).status).toBe(201);
      expect(
        (await admin(a, 'POST', '/mcp-servers', { name: 'web', transport: { type: 'http', url: httpUrl } })).status,
      ).toBe(201);

      await eventually(
        () => Promise.resolve(toolListChanges),
        (changes) => changes > 0,
      );
      await eventually(
        () => toolNames(session),
        (names) => names.includes('mcp_everything_echo') && names.includes('mcp_web_echo'),
      );
      const echoed = await session.callTool({ name: 'mcp_everything_echo', arguments: { message: 'through b' } });
      expect(textOf(echoed)).toContain('through b');

      llm.play(
        { toolCalls: [{ name: 'mcp_web_echo', arguments: { message: 'from the worker' } }] },
        { tokens: ['done'] },
      );
      const task = await sendMessage(a.baseUrl, 'assistant', TEST_API_KEY, 'use the new tool');
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(JSON.stringify(llm.requests[0].body.tools)).toContain('mcp_web_echo');
      expect(llm.requests[1].body.messages.at(-1)?.content).toContain('from the worker');
      for (const service of [a, b, worker]) expect(stdioChildren(service)).toHaveLength(1);
    }));

  it('closes removed servers on every process, and their calls fail with a clear error', () =>
    services.explain(async () => {
      const [before, resourcesBefore] = [toolListChanges, resourceListChanges];
      expect((await admin(a, 'DELETE', '/mcp-servers/everything')).status).toBe(204);
      expect((await admin(a, 'DELETE', '/mcp-servers/web')).status).toBe(204);
      await eventually(
        () => toolNames(session),
        (names) => !names.some((name) => name.startsWith('mcp_')),
      );
      await eventually(
        () => Promise.resolve(toolListChanges),
        (changes) => changes > before,
      );
      await eventually(
        () => Promise.resolve(resourceListChanges),
        (changes) => changes > resourcesBefore,
      );
      const gone = await session
        .callTool({ name: 'mcp_web_echo', arguments: { message: 'x' } })
        .catch((error: Error) => ({
          isError: true,
          content: [{ type: 'text', text: error.message }],
        }));
      expect(gone.isError).toBe(true);
      expect(textOf(gone)).toMatch(/mcp_web_echo/);
      await eventually(
        async () => [a, b, worker].map((service) => stdioChildren(service).length),
        (counts) => counts.every((count) => count === 0),
      );
    }));

  it('authenticates a key created on A on B, refuses it once deleted there, and refuses an expired key', () =>
    services.explain(async () => {
      const created = await admin(a, 'POST', '/keys', { name: 'fresh' });
      const { key } = (await created.json()) as Json;
      const status = (service: ServiceProcess, presented: string) =>
        fetch(`${service.baseUrl}/api/a2a/agents`, { headers: bearer(presented) }).then(({ status }) => status);
      await eventually(
        () => status(b, key),
        (answer) => answer === 200,
      );
      expect((await admin(a, 'DELETE', '/keys/fresh')).status).toBe(204);
      await eventually(
        () => status(b, key),
        (answer) => answer === 401,
      );
      expect(await status(b, EXPIRED_KEY)).toBe(401);
    }));

  it('narrows what a caller lists on B with a rule added on A', () =>
    services.explain(async () => {
      const { client } = await connectV1(b.baseUrl);
      try {
        expect(await toolNames(client)).toContain('switchboard_agent_assistant');
        const rule = { name: 'tester-narrowed', keys: ['tester'], tools: ['switchboard_list_agents'] };
        expect((await admin(a, 'POST', '/rules', rule)).status).toBe(201);
        await eventually(
          () => toolNames(client),
          (names) => !names.includes('switchboard_agent_assistant'),
        );
      } finally {
        await client.close();
      }
    }));
});
