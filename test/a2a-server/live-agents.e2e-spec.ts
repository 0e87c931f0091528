/**
 * Hosted agents follow the live catalog, embedded and durable (where the API's worker runs the
 * turns): an agent added is served over A2A at once (its card and a send, through the official SDK
 * client, over JSON-RPC and HTTP+JSON) and appears as an MCP tool, which an MCP session opened
 * before is told of; removed, its routes answer 404 as an unknown agent's do, and its tool leaves
 * `/mcp`.
 */
import { type StreamResponse, TaskState } from '@a2a-js/sdk';
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { LiveCatalog } from '../../src/config/live-catalog';
import { catalogFrom, changeCatalog } from '../support/live-catalog';
import { artifactText, asTask, type Binding, sdkClient, userMessage } from '../support/sdk-client';
import { bearer, startTestApp, testConfig } from '../support/test-app';
import {
  createTestDatabase,
  deleteRedisKeys,
  type TestDatabase,
  testRedisPrefix,
  testRedisUrl,
} from '../support/test-database';
import { connectV1, textOf } from '../mcp-server/support/mcp-clients';
import { toolListWatch } from '../mcp-server/support/tool-list-watch';

const GREETER = catalogFrom(`
[[agents]]
name = "greeter"
description = "Greets, by echoing"
[agents.executor]
type = "echo"
`).agents;

/** An echo agent answering in `chunks` chunks, 200 ms apart. */
const chunker = (chunks: number) =>
  catalogFrom(`
[[agents]]
name = "chunker"
[agents.executor]
type = "echo"
chunks = ${chunks}
delay_ms = 200
`).agents;

describe.each(['embedded', 'durable'] as const)('agents of the live catalog (%s)', (mode) => {
  let database: TestDatabase | undefined;
  let redisPrefix: string | undefined;
  let app: NestFastifyApplication;
  let url: string;
  let mcp: McpClient;
  const watch = toolListWatch();

  beforeAll(async () => {
    let stores = {};
    if (mode === 'durable') {
      database = await createTestDatabase();
      redisPrefix = testRedisPrefix();
      stores = { DATABASE_URL: database.url, REDIS_URL: testRedisUrl(), SWITCHBOARD_REDIS_PREFIX: redisPrefix };
    }
    ({ app, url } = await startTestApp(testConfig(stores)));
    ({ client: mcp } = await connectV1(url, { listChanged: watch.listChanged }));
  });

  afterAll(async () => {
    await mcp?.close();
    await app?.close();
    if (redisPrefix) await deleteRedisKeys(redisPrefix);
    await database?.drop();
  });

  const card = () => fetch(`${url}/a2a/agents/greeter/agent-card.json`);

  it('serves an agent once added: its card, a send over each binding, and its MCP tool', async () => {
    expect((await card()).status).toBe(404);
    changeCatalog(app, { agents: [...app.get(LiveCatalog).current.agents, ...GREETER] });
    for (const binding of ['JSONRPC', 'HTTP+JSON'] as Binding[]) {
      const client = await sdkClient(url, 'greeter', binding);
      expect((await client.getAgentCard()).name).toBe('greeter');
      const task = asTask(await client.sendMessage(userMessage(`hello over ${binding}`)));
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(artifactText(task)).toBe(`hello over ${binding}`);
    }
    const listed = await fetch(`${url}/a2a/agents`);
    expect(JSON.stringify(await listed.json())).toContain('"greeter"');
    await watch.announced((names) => names.includes('switchboard_agent_greeter'));
    const called = await mcp.callTool({ name: 'switchboard_agent_greeter', arguments: { message: 'hi by MCP' } });
    expect(textOf(called)).toContain('hi by MCP');
  });

  it('finishes a turn under way with the executor it started with; the next turn takes the new one', async () => {
    const others = app.get(LiveCatalog).current.agents;
    changeCatalog(app, { agents: [...others, ...chunker(3)] });
    const client = await sdkClient(url, 'chunker', 'JSONRPC');
    const artifactsOf = async (stream: AsyncIterable<StreamResponse>, onFirst: () => void) => {
      let artifacts = 0;
      for await (const event of stream) {
        if (event.payload?.$case !== 'artifactUpdate') continue;
        if (++artifacts === 1) onFirst();
      }
      return artifacts;
    };
    const changedMidTurn = await artifactsOf(client.sendMessageStream(userMessage('abcdef')), () =>
      changeCatalog(app, { agents: [...others, ...chunker(1)] }),
    );
    expect(changedMidTurn).toBe(3);
    expect(await artifactsOf(client.sendMessageStream(userMessage('abcdef')), () => undefined)).toBe(1);
    changeCatalog(app, { agents: others });
  });

  it('answers for a removed agent as for an unknown one: 404, and no MCP tool', async () => {
    changeCatalog(app, { agents: app.get(LiveCatalog).current.agents.filter(({ name }) => name !== 'greeter') });
    expect((await card()).status).toBe(404);
    const send = await fetch(`${url}/a2a/agents/greeter`, {
      method: 'POST',
      headers: { ...bearer(), 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: {} }),
    });
    expect(send.status).toBe(404);
    expect(await send.json()).toMatchObject({ error: 'agent_not_found' });
    await watch.announced((names) => !names.includes('switchboard_agent_greeter'));
    expect((await mcp.listTools()).tools.map((tool) => tool.name)).not.toContain('switchboard_agent_greeter');
  });
});
