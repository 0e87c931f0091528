/**
 * The ARDF MCP<->A2A bridge on `/mcp`: agents (hosted and external) as `a2a-agent://{name}`
 * resources, tasks as `a2a://task/{id}`, the `subagent_*` tools, and resource subscriptions,
 * through the official clients of both protocol eras.
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killAllPeers, type PeerAgent, startPeer } from '../../a2a-client/support/peer-process';
import { writeConfigFile } from '../../support/config-file';
import { eventually } from '../../support/eventually';
import { startTestApp, testConfig, TEST_API_KEY } from '../../support/test-app';
import {
  artifactText,
  bridgeClientV1,
  bridgeClientV2,
  OTHER_API_KEY,
  readTask,
  startedTask,
  statesUntil,
  type TaskView,
} from '../support/bridge-clients';
import { rawMcp, rpc } from '../support/raw-mcp';

const AGENTS_TOML = `
[[agents]]
name = "echo"
description = "Echoes at once"
[agents.executor]
type = "echo"

[[agents]]
name = "slow"
description = "Echoes in three chunks, 300 ms apart"
[agents.executor]
type = "echo"
chunks = 3
delay_ms = 300

[[agents]]
name = "slower"
[agents.executor]
type = "echo"
chunks = 5
delay_ms = 1000

[[agents]]
name = "ask"
[agents.executor]
type = "script"
steps = [{ status = "working" }, { status = "input-required", text = "Which city?" }]
`;

/** Reads the task through `client` until `done` accepts it. */
function taskState(
  client: Parameters<typeof readTask>[0],
  uri: string,
  done: (task: TaskView) => boolean,
): Promise<TaskView> {
  return eventually(() => readTask(client, uri), done);
}

/** Reads the task after each update `updates` hears of it, until it is `state`; returns the states read. */

let peer: PeerAgent;
let app: NestFastifyApplication;
let url: string;

beforeAll(async () => {
  peer = await startPeer({ mode: 'v1' });
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-manifests-'));
  const manifest = {
    type: 'subagent',
    id: 'ventas',
    name: 'Ventas Core',
    description: 'The peer, published by an ARDF manifest',
    a2a: { agentCardUri: `${peer.url}/.well-known/agent-card.json` },
    mcpBridge: { tools: [{ name: 'subagent_start' }, { name: 'subagent_send' }, { name: 'subagent_cancel' }] },
    taskResourceTemplate: 'a2a://task/{taskId}',
  };
  writeFileSync(join(dir, 'ventas.json'), JSON.stringify(manifest));
  const config = writeConfigFile(
    [
      '[outbound]\nallow_hosts = ["127.0.0.1"]',
      `[a2a]\nsubagent_manifests = ["${join(dir, 'ventas.json')}"]`,
      '[a2a.client]\npoll_interval_ms = 50\nsse_retry_base_ms = 50\nsse_retry_max_ms = 200',
      `[[a2a.external_agents]]\nname = "peer"\nurl = "${peer.url}"`,
      AGENTS_TOML,
    ].join('\n'),
  );
  ({ app, url } = await startTestApp(
    testConfig({ SWITCHBOARD_CONFIG: config, SWITCHBOARD_API_KEYS: `tester=${TEST_API_KEY},other=${OTHER_API_KEY}` }),
  ));
}, 60_000);

afterAll(async () => {
  await app?.close();
  await killAllPeers();
});

describe('agents as resources', () => {
  it('lists every hosted and external agent as a2a-agent://{name}, and the task template', async () => {
    const { client } = await bridgeClientV1(url);
    expect(client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true, listChanged: true });
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri).sort()).toEqual([
      'a2a-agent://ask',
      'a2a-agent://echo',
      'a2a-agent://peer',
      'a2a-agent://slow',
      'a2a-agent://slower',
      'a2a-agent://ventas',
    ]);
    expect(resources.find((resource) => resource.uri === 'a2a-agent://echo')).toMatchObject({
      name: 'echo',
      mimeType: 'application/json',
      description: 'Echoes at once',
    });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate).sort()).toEqual([
      'a2a-agent://{name}',
      'a2a://task/{taskId}',
    ]);
    await client.close();
  });

  it('reads a hosted agent as a synthesized ARDF manifest and its agent card', async () => {
    const { client } = await bridgeClientV1(url);
    const { contents } = await client.readResource({ uri: 'a2a-agent://echo' });
    expect(contents).toHaveLength(2);
    const [manifest, card] = contents.map((content) => JSON.parse((content as { text: string }).text));
    const cardUrl = `${url}/a2a/agents/echo/agent-card.json`;
    expect(contents[0]).toMatchObject({ uri: 'a2a-agent://echo', mimeType: 'application/json' });
    expect(manifest).toEqual({
      type: 'subagent',
      id: 'echo',
      name: 'echo',
      description: 'Echoes at once',
      a2a: { agentCardUri: cardUrl },
      mcpBridge: { tools: [{ name: 'subagent_start' }, { name: 'subagent_send' }, { name: 'subagent_cancel' }] },
      taskResourceTemplate: 'a2a://task/{taskId}',
    });
    expect(contents[1]).toMatchObject({ uri: cardUrl, mimeType: 'application/json' });
    expect(card).toMatchObject({ name: 'echo', url: `${url}/a2a/agents/echo` });
    // The card URL the manifest names is the one the A2A server serves.
    expect(await (await fetch(cardUrl)).json()).toEqual(card);
    await client.close();
  });

  it('reads an external agent with its discovered card, and a manifest-loaded one with its manifest as written', async () => {
    const { client } = await bridgeClientV2(url);
    const cardUrl = `${peer.url}/.well-known/agent-card.json`;
    const read = (uri: string) =>
      client
        .readResource({ uri })
        .then(({ contents }) => contents.map((content) => JSON.parse((content as { text: string }).text)));
    const [manifest] = await eventually(
      () => read('a2a-agent://peer').catch(() => []),
      ([, found]) => found?.name === 'peer',
    );
    expect(manifest).toMatchObject({
      type: 'subagent',
      id: 'peer',
      a2a: { agentCardUri: cardUrl },
      taskResourceTemplate: 'a2a://task/{taskId}',
    });
    const [written, ventasCard] = await eventually(
      () => read('a2a-agent://ventas').catch(() => []),
      ([, found]) => found?.name === 'peer',
    );
    expect(written).toEqual({
      type: 'subagent',
      id: 'ventas',
      name: 'Ventas Core',
      description: 'The peer, published by an ARDF manifest',
      a2a: { agentCardUri: cardUrl },
      mcpBridge: { tools: [{ name: 'subagent_start' }, { name: 'subagent_send' }, { name: 'subagent_cancel' }] },
      taskResourceTemplate: 'a2a://task/{taskId}',
    });
    expect(ventasCard.supportedInterfaces[0].url).toBe(`${peer.url}/a2a/jsonrpc`);
    await client.close();
  });

  it('answers resource-not-found for an unknown agent', async () => {
    const { client } = await bridgeClientV1(url);
    await expect(client.readResource({ uri: 'a2a-agent://nobody' })).rejects.toThrow(/not found/i);
    await client.close();
  });
});

describe('the subagent tools', () => {
  it('offers subagent_start, subagent_send and subagent_cancel beside the agent tools', async () => {
    const { client } = await bridgeClientV1(url);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['subagent_start', 'subagent_send', 'subagent_cancel', 'switchboard_agent_echo']),
    );
    await client.close();
  });

  it('starts a task of a hosted agent: a resource link and {taskUri, taskId}, then the task completes', async () => {
    const { client } = await bridgeClientV1(url);
    const result = await client.callTool({
      name: 'subagent_start',
      arguments: { subagentUri: 'a2a-agent://echo', text: 'Hola' },
    });
    const { taskUri, taskId } = startedTask(result);
    expect(taskUri).toBe(`a2a://task/${taskId}`);
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([
      { type: 'resource_link', uri: taskUri, name: expect.stringContaining(taskId), mimeType: 'application/json' },
      { type: 'text', text: JSON.stringify({ taskUri, taskId }) },
    ]);
    const task = await taskState(client, taskUri, (view) => view.state === 'completed');
    expect(task).toMatchObject({ taskId, agent: 'echo', contextId: expect.any(String) });
    expect(artifactText(task)).toBe('Hola');
    expect(task.history[0]).toMatchObject({ role: 'ROLE_USER', parts: [{ text: 'Hola' }] });
    await client.close();
  });

  it('runs a conversation with an external agent: start, input-required, send, completed', async () => {
    const { client } = await bridgeClientV2(url);
    const { taskUri, taskId } = startedTask(
      await client.callTool({ name: 'subagent_start', arguments: { subagentUri: 'a2a-agent://peer', text: 'ask' } }),
    );
    const asked = await taskState(client, taskUri, (view) => view.state === 'input-required');
    expect(asked.message).toBe('which city?');
    const sent = await client.callTool({ name: 'subagent_send', arguments: { taskId, text: 'Lisbon' } });
    expect(sent.structuredContent).toEqual({ ok: true });
    const answered = await taskState(client, taskUri, (view) => view.state === 'completed');
    expect(artifactText(answered)).toContain('weather in Lisbon: sunny');
    await client.close();
  });

  it('continues a hosted agent task with subagent_send', async () => {
    const { client } = await bridgeClientV1(url);
    const { taskUri, taskId } = startedTask(
      await client.callTool({ name: 'subagent_start', arguments: { subagentUri: 'a2a-agent://ask', text: 'trip' } }),
    );
    await taskState(client, taskUri, (view) => view.state === 'input-required');
    expect(
      (await client.callTool({ name: 'subagent_send', arguments: { taskId, text: 'Porto' } })).structuredContent,
    ).toEqual({
      ok: true,
    });
    const task = await taskState(
      client,
      taskUri,
      (view) => view.state === 'input-required' && view.history.filter((m) => m.role === 'ROLE_USER').length === 2,
    );
    expect(task.agent).toBe('ask');
    await client.close();
  });

  it('cancels a running task with subagent_cancel', async () => {
    const { client } = await bridgeClientV1(url);
    const { taskUri, taskId } = startedTask(
      await client.callTool({
        name: 'subagent_start',
        arguments: { subagentUri: 'a2a-agent://slower', text: 'abcde' },
      }),
    );
    await taskState(client, taskUri, (view) => view.state === 'working');
    const canceled = await client.callTool({ name: 'subagent_cancel', arguments: { taskId } });
    expect(canceled.structuredContent).toEqual({ canceled: true });
    expect((await readTask(client, taskUri)).state).toBe('canceled');
    await client.close();
  });

  it('answers errors as isError results naming the agent or the task', async () => {
    const { client } = await bridgeClientV1(url);
    const unknownAgent = await client.callTool({
      name: 'subagent_start',
      arguments: { subagentUri: 'a2a-agent://nobody', text: 'hi' },
    });
    expect(unknownAgent.isError).toBe(true);
    expect(JSON.stringify(unknownAgent.content)).toContain('a2a-agent://nobody');
    const unknownTask = await client.callTool({
      name: 'subagent_send',
      arguments: { taskId: 'no-such-task', text: 'hi' },
    });
    expect(unknownTask.isError).toBe(true);
    expect(JSON.stringify(unknownTask.content)).toContain('no-such-task');
    const { taskUri, taskId } = startedTask(
      await client.callTool({ name: 'subagent_start', arguments: { subagentUri: 'a2a-agent://echo', text: 'done' } }),
    );
    await taskState(client, taskUri, (view) => view.state === 'completed');
    const ended = await client.callTool({ name: 'subagent_cancel', arguments: { taskId } });
    expect(ended.isError).toBe(true);
    expect(JSON.stringify(ended.content)).toContain(taskId);
    await client.close();
  });
});

describe("another API key's tasks", () => {
  it('can be neither read, subscribed to, listened to, continued nor canceled', async () => {
    const { client: owner } = await bridgeClientV1(url);
    const { taskUri, taskId } = startedTask(
      await owner.callTool({ name: 'subagent_start', arguments: { subagentUri: 'a2a-agent://ask', text: 'mine' } }),
    );
    const { client: stranger } = await bridgeClientV1(url, OTHER_API_KEY);
    await expect(stranger.readResource({ uri: taskUri })).rejects.toThrow(/not found/i);
    await expect(stranger.subscribeResource({ uri: taskUri })).rejects.toThrow(/not found/i);
    expect((await stranger.callTool({ name: 'subagent_send', arguments: { taskId, text: 'theirs' } })).isError).toBe(
      true,
    );
    expect((await stranger.callTool({ name: 'subagent_cancel', arguments: { taskId } })).isError).toBe(true);
    const { client: modern } = await bridgeClientV2(url, OTHER_API_KEY);
    const listening = await modern.listen({ resourceSubscriptions: [taskUri] });
    expect(listening.honoredFilter.resourceSubscriptions).toBeUndefined();
    await listening.close();
    expect((await readTask(owner, taskUri)).history.filter((message) => message.role === 'ROLE_USER')).toHaveLength(1);
    await Promise.all([owner.close(), stranger.close(), modern.close()]);
  });

  it('answers resource-not-found for unknown and malformed task URIs', async () => {
    const { client } = await bridgeClientV1(url);
    await expect(client.readResource({ uri: 'a2a://task/no-such-task' })).rejects.toThrow(/not found/i);
    await expect(client.readResource({ uri: 'a2a://task/x?y=1' })).rejects.toThrow(/not found/i);
    await client.close();
  });
});

describe('subscriptions (2025-11-25: resources/subscribe, the GET stream)', () => {
  it('announce every change of a subscribed task until it completes, and nothing of other or unsubscribed tasks', async () => {
    const { client, updates } = await bridgeClientV1(url);
    const start = async (agent: string, text: string) =>
      startedTask(
        await client.callTool({ name: 'subagent_start', arguments: { subagentUri: `a2a-agent://${agent}`, text } }),
      );
    // An unsubscribed task: subscribed while waiting for input, unsubscribed, then continued.
    const dropped = await start('ask', 'trip');
    await taskState(client, dropped.taskUri, (view) => view.state === 'input-required');
    await client.subscribeResource({ uri: dropped.taskUri });
    await client.unsubscribeResource({ uri: dropped.taskUri });
    const followed = await start('slow', 'abc');
    await client.subscribeResource({ uri: followed.taskUri });
    const other = await start('slow', 'xyz');
    await client.callTool({ name: 'subagent_send', arguments: { taskId: dropped.taskId, text: 'Porto' } });
    const states = await statesUntil(updates, client, followed.taskUri, 'completed');
    expect(states.at(-1)).toBe('completed');
    // Three artifact chunks and the final status at least, each announced.
    await updates.next(followed.taskUri, 3);
    await taskState(client, other.taskUri, (view) => view.state === 'completed');
    await taskState(
      client,
      dropped.taskUri,
      (view) => view.history.filter((m) => m.role === 'ROLE_USER').length === 2 && view.state === 'input-required',
    );
    expect(new Set(updates.uris)).toEqual(new Set([followed.taskUri]));
    await client.close();
  });

  it('are refused for a task URI in another form, and kept by a session only', async () => {
    const { client } = await bridgeClientV1(url);
    await expect(client.subscribeResource({ uri: 'a2a-agent://echo' })).rejects.toThrow(/task resources/);
    const stateless = await rawMcp(url, 'POST', rpc('resources/subscribe', { uri: 'a2a://task/anything' }), {
      'mcp-protocol-version': '2025-11-25',
    });
    expect(stateless.message?.error?.message).toMatch(/not found|session/i);
    await client.close();
  });
});

describe('subscriptions (2026-07-28: subscriptions/listen)', () => {
  it('announce every change of a listened task until it completes, and nothing of others', async () => {
    const { client, updates } = await bridgeClientV2(url);
    const start = async (text: string) =>
      startedTask(
        await client.callTool({ name: 'subagent_start', arguments: { subagentUri: 'a2a-agent://slow', text } }),
      );
    const followed = await start('abc');
    const other = await start('xyz');
    const listening = await client.listen({
      resourceSubscriptions: [followed.taskUri, 'a2a://task/no-such-task', 'a2a-agent://echo'],
    });
    expect(listening.honoredFilter.resourceSubscriptions).toEqual([followed.taskUri]);
    const states = await statesUntil(updates, client, followed.taskUri, 'completed');
    expect(states.at(-1)).toBe('completed');
    await taskState(client, other.taskUri, (view) => view.state === 'completed');
    expect(new Set(updates.uris)).toEqual(new Set([followed.taskUri]));
    await listening.close();
    await client.close();
  });
});

describe("the seed's curl forms", () => {
  const seedBody = (method: string, params: unknown) => JSON.stringify({ type: 'request', method, params, id: 1 });

  it('answers the seed\'s own curl bodies ({"type":"request"}, no jsonrpc, no session, no protocol version header)', async () => {
    const listed = await rawMcp(url, 'POST', seedBody('resources/list', {}));
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.message?.result)).toContain('a2a-agent://echo');
    const started = await rawMcp(
      url,
      'POST',
      seedBody('tools/call', { name: 'subagent_start', arguments: { subagentUri: 'a2a-agent://echo', text: 'Hola' } }),
    );
    const result = started.message?.result as {
      content: { type: string; uri?: string }[];
      structuredContent: { taskUri: string; taskId: string };
    };
    expect(result.content[0]).toMatchObject({ type: 'resource_link', uri: result.structuredContent.taskUri });
    const read = await eventually(
      () => rawMcp(url, 'POST', seedBody('resources/read', { uri: result.structuredContent.taskUri })),
      (response) =>
        JSON.parse((response.message?.result as { contents: { text: string }[] }).contents[0].text).state ===
        'completed',
    );
    expect(read.status).toBe(200);
  });

  it('answers the same calls in JSON-RPC 2.0, without a session', async () => {
    const headers = { 'mcp-protocol-version': '2025-11-25' };
    const listed = await rawMcp(url, 'POST', rpc('resources/list', {}), headers);
    expect(JSON.stringify(listed.message?.result)).toContain('a2a-agent://echo');
    const started = await rawMcp(
      url,
      'POST',
      rpc('tools/call', { name: 'subagent_start', arguments: { subagentUri: 'a2a-agent://echo', text: 'Hola' } }, 2),
      headers,
    );
    const { taskUri, taskId } = (started.message?.result as { structuredContent: { taskUri: string; taskId: string } })
      .structuredContent;
    expect(taskUri).toBe(`a2a://task/${taskId}`);
    const read = await eventually(
      () => rawMcp(url, 'POST', rpc('resources/read', { uri: taskUri }, 3), headers),
      (response) =>
        JSON.parse((response.message?.result as { contents: { text: string }[] }).contents[0].text).state ===
        'completed',
    );
    expect(read.status).toBe(200);
  });
});
