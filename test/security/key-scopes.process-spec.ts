/**
 * Per-key access (`auth.api_keys[].tools` and `.agents`): a key reaches only the tools and agents it
 * lists, through `/mcp` (both eras), the ARDF bridge and every A2A binding; a key without lists
 * reaches everything.
 */
import { TaskState } from '@a2a-js/sdk';
import type { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { TEST_AGENTS_TOML } from '../support/test-agents';
import { asTask, sdkClient, userMessage } from '../support/sdk-client';
import { EVERYTHING_SERVER } from '../mcp-client/support/mcp-servers';
import { startMcpApp, stdioServer, toolsListed, type McpTestApp } from '../mcp-client/support/mcp-app';
import { connectV1, connectV2, textOf } from '../mcp-server/support/mcp-clients';
import { eventually } from '../support/eventually';
import { bearer } from '../support/test-app';

const FULL_KEY = 'full-key-0123456789abcdef';
const SCOPED_KEY = 'scoped-key-0123456789abcdef';
const SERVER_KEY = 'server-key-0123456789abcdef';
const KEYS_TOML = `
[auth]
api_keys = [
  { name = "full", key = "${FULL_KEY}" },
  { name = "scoped", key = "${SCOPED_KEY}", tools = ["mcp_everything_echo", "switchboard_agent_*", "subagent_start"], agents = ["slow"] },
  { name = "server", key = "${SERVER_KEY}", tools = ["mcp_everything_*"] },
]
`;
const SCOPED_TOOLS = ['mcp_everything_echo', 'subagent_start', 'switchboard_agent_slow'];

let target: McpTestApp;

beforeAll(async () => {
  target = await startMcpApp(KEYS_TOML + TEST_AGENTS_TOML + stdioServer('everything', EVERYTHING_SERVER, ['stdio']), {
    SWITCHBOARD_API_KEYS: undefined as never,
  });
  await toolsListed(target.tools, ['mcp_everything_echo', 'mcp_everything_get_env']);
});

afterAll(async () => {
  await target?.app.close();
});

/** A call's outcome as text, whether the server answers with an error result or a protocol error. */
async function callOutcome(
  client: Pick<ClientV1, 'callTool'>,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError: boolean; text: string }> {
  try {
    const result = await client.callTool({ name, arguments: args });
    return { isError: Boolean(result.isError), text: textOf(result) };
  } catch (error) {
    return { isError: true, text: (error as Error).message };
  }
}

describe('per-key access at /mcp', () => {
  it('lists only the tools and agents of a scoped key (2025 era)', async () => {
    const { client } = await connectV1(target.url, { key: SCOPED_KEY });
    const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(names).toEqual(SCOPED_TOOLS);
    await client.close();
  });

  it('lists everything to a key without lists', async () => {
    const { client } = await connectV1(target.url, { key: FULL_KEY });
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['mcp_everything_get_env', 'web_fetch', 'switchboard_agent_echo', 'subagent_cancel']),
    );
    await client.close();
  });

  it('calls an allowed tool and refuses the others, both eras', async () => {
    const { client: v1 } = await connectV1(target.url, { key: SCOPED_KEY });
    const v2 = await connectV2(target.url, { key: SCOPED_KEY });
    for (const client of [v1, v2] as Pick<ClientV1, 'callTool'>[]) {
      expect(await callOutcome(client, 'mcp_everything_echo', { message: 'hi' })).toEqual({
        isError: false,
        text: 'Echo: hi',
      });
      for (const refused of ['mcp_everything_get_env', 'web_fetch', 'switchboard_agent_echo', 'subagent_cancel']) {
        const outcome = await callOutcome(client, refused, { message: 'x', url: 'http://127.0.0.1/', taskId: 'x' });
        expect({ refused, ...outcome }).toEqual({ refused, isError: true, text: expect.stringMatching(/not found/i) });
      }
    }
    await v1.close();
    await v2.close();
  });

  it('runs an allowed agent as a tool', async () => {
    const { client } = await connectV1(target.url, { key: SCOPED_KEY });
    expect(await callOutcome(client, 'switchboard_agent_slow', { message: 'abc' })).toEqual({
      isError: false,
      text: 'abc',
    });
    await client.close();
  });

  it('keeps the bridge to the allowed agents: listed and started', async () => {
    const { client } = await connectV1(target.url, { key: SCOPED_KEY });
    const agents = (await client.listResources()).resources.map((resource) => resource.uri);
    expect(agents).toContain('a2a-agent://slow');
    expect(agents).not.toContain('a2a-agent://echo');
    const refused = await callOutcome(client, 'subagent_start', { subagentUri: 'a2a-agent://echo', text: 'hi' });
    expect(refused).toEqual({ isError: true, text: expect.stringContaining('may not reach agent "echo"') });
    const started = await callOutcome(client, 'subagent_start', { subagentUri: 'a2a-agent://slow', text: 'hi' });
    expect(started.isError).toBe(false);
    await client.close();
  });
});

describe("per-key access to the connected servers' resources and prompts", () => {
  /** What a key is offered of server-everything's catalog. */
  async function catalogOf(key: string): Promise<{ resources: string[]; prompts: string[] }> {
    const { client } = await connectV1(target.url, { key });
    const resources = (await client.listResources()).resources
      .map((resource) => resource.uri)
      .filter((uri) => uri.startsWith('mcp://everything/'));
    const prompts = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
    await client.close();
    return { resources, prompts };
  }

  it("offers them to a key covering all of the server's tools, and hides them from one that names some", async () => {
    const whole = await eventually(
      () => catalogOf(SERVER_KEY),
      ({ resources, prompts }) => resources.length > 0 && prompts.length > 0,
    );
    expect(await catalogOf(FULL_KEY)).toEqual(whole);
    expect(await catalogOf(SCOPED_KEY)).toEqual({ resources: [], prompts: [] });

    const { client } = await connectV1(target.url, { key: SCOPED_KEY });
    await expect(client.readResource({ uri: whole.resources[0] })).rejects.toThrow(/not found/i);
    await expect(client.getPrompt({ name: whole.prompts[0] })).rejects.toThrow(/no MCP prompt named/);
    await client.close();
  });
});

describe('per-key access over A2A', () => {
  it('serves an allowed agent over both bindings', async () => {
    for (const binding of ['JSONRPC', 'HTTP+JSON'] as const) {
      const client = await sdkClient(target.url, 'slow', binding, SCOPED_KEY);
      const task = asTask(await client.sendMessage(userMessage('ok')));
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    }
  });

  it('refuses another agent with 403 over both bindings, through the official client', async () => {
    for (const binding of ['JSONRPC', 'HTTP+JSON'] as const) {
      const client = await sdkClient(target.url, 'echo', binding, SCOPED_KEY);
      await expect(client.sendMessage(userMessage('no'))).rejects.toThrow(/403/);
    }
  });

  it('answers 403 naming the key and agent on the primary, named and seed routes', async () => {
    const body = {
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: { message: { messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'x' }] } },
    };
    for (const path of ['/a2a', '/a2a/agents/echo', '/a2a/tasks/send']) {
      const response = await fetch(`${target.url}${path}`, {
        method: 'POST',
        headers: { ...bearer(SCOPED_KEY), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect({ path, status: response.status, body: await response.json() }).toEqual({
        path,
        status: 403,
        body: { error: 'agent_not_allowed', message: expect.stringContaining('"scoped" may not reach agent "echo"') },
      });
    }
  });

  it('leaves every agent to a key without lists', async () => {
    const client = await sdkClient(target.url, 'echo', 'JSONRPC', FULL_KEY);
    expect(asTask(await client.sendMessage(userMessage('ok'))).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });
});
