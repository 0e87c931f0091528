import { ServerCallContext } from '@a2a-js/sdk/server';
import { Client, InMemoryTransport, ProtocolErrorCode, type CallToolResult } from '@modelcontextprotocol/client';
import type { INestApplicationContext } from '@nestjs/common';
import { join } from 'node:path';
import { createAppContext } from '../../../src/app.factory';
import { configSchema } from '../../../src/config/config.schema';
import { MCP_TOOL_SOURCE, type McpToolSource } from '../../../src/mcp-client/mcp-tool-source.interface';
import { AccessScope } from '../../../src/security/access-scope';
import { authInfoOf, type McpCaller, type ServerNeeds } from '../../../src/mcp-server/mcp-caller';
import { SwitchboardMcpServerFactory } from '../../../src/mcp-server/server/switchboard-mcp-server.factory';

/** A stdio MCP server on the v2 SDK (2025 era) whose `echo` tool answers `legacy:{text}`. */
const FIXTURE_SERVER = join(__dirname, '../../mcp-client/fixtures/dynamic-server.cjs');

/** Embedded mode (memory stores, in-process queue) with two agents and one connected MCP server. */
const config = configSchema.parse({
  log: { level: 'silent' },
  agents: [
    { name: 'echo', executor: { type: 'echo' } },
    {
      name: 'code-reviewer',
      description: 'Reviews code',
      executor: { type: 'script', steps: [{ status: 'failed', text: 'Nothing to review.' }] },
    },
  ],
  mcp_servers: [
    { name: 'fixture', transport: { type: 'stdio', command: process.execPath, args: [FIXTURE_SERVER, 'legacy'] } },
  ],
});

function caller(scope: AccessScope = AccessScope.unrestricted): McpCaller {
  return {
    owner: 'alice',
    scope,
    context: new ServerCallContext({ user: { isAuthenticated: true, userName: 'alice' } }),
  };
}

/** Resolves once `tools` lists `name`: the MCP server it belongs to has connected. */
function listed(tools: McpToolSource, name: string): Promise<void> {
  return new Promise((resolve) => {
    const stop = tools.onChange(() => {
      if (!tools.get(name)) return;
      stop();
      resolve();
    });
    if (tools.get(name)) resolve();
  });
}

const textOf = (result: CallToolResult) =>
  result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');

describe('SwitchboardMcpServerFactory', () => {
  let app: INestApplicationContext;
  let factory: SwitchboardMcpServerFactory;
  const clients: Client[] = [];

  /**
   * The official client, connected in memory to a server the factory built for `who`. Each message
   * carries the caller as `/mcp` hands it to its servers (the SDK's `authInfo`).
   */
  async function connect(who: McpCaller, needs: ServerNeeds = 'everything'): Promise<Client> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (message, options) => send(message, { ...options, authInfo: authInfoOf(who, needs) });
    await factory.create(who, 'legacy', needs).connect(serverSide);
    const client = new Client({ name: 'factory-spec', version: '1.0.0' });
    await client.connect(clientSide);
    clients.push(client);
    return client;
  }

  const toolNames = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name).sort();

  beforeAll(async () => {
    app = await createAppContext(config, 'stdio');
    factory = app.get(SwitchboardMcpServerFactory);
    await listed(app.get<McpToolSource>(MCP_TOOL_SOURCE), 'mcp_fixture_echo');
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await app?.close();
  });

  describe('lists', () => {
    it("every agent as switchboard_agent_{name}, the built-in tools and the connected servers' tools as mcp_{server}_{tool}", async () => {
      const names = await toolNames(await connect(caller()));
      expect(names).toEqual(
        expect.arrayContaining([
          'switchboard_agent_echo',
          'switchboard_agent_code_reviewer',
          'web_fetch',
          'mcp_fixture_echo',
          'mcp_fixture_add_tool',
        ]),
      );
      // The name earlier releases gave an agent with a hyphen is callable, never listed.
      expect(names).not.toContain('switchboard_agent_code-reviewer');
    });

    it("only what the caller's grants reach, tools and agents alike", async () => {
      const agentsOnly = caller(AccessScope.of({ tools: ['switchboard_agent_*'], agents: ['echo'] }));
      expect(await toolNames(await connect(agentsOnly))).toEqual(['switchboard_agent_echo']);
      const upstreamOnly = caller(AccessScope.of({ tools: ['mcp_fixture_echo'] }));
      expect(await toolNames(await connect(upstreamOnly))).toEqual(['mcp_fixture_echo']);
    });

    it("per reach, on the servers kept for listing: one caller's list never reaches another", async () => {
      const everything = await toolNames(await connect(caller(), 'listing'));
      expect(everything).toContain('mcp_fixture_echo');
      expect(await toolNames(await connect(caller(AccessScope.of({ tools: ['web_fetch'] })), 'listing'))).toEqual([
        'web_fetch',
      ]);
    });

    it('only the tool named, on a server built for one call', async () => {
      expect(await toolNames(await connect(caller(), { tool: 'switchboard_agent_echo' }))).toEqual([
        'switchboard_agent_echo',
      ]);
    });
  });

  describe('a call', () => {
    it("of an agent's tool runs a turn of the agent and answers with its text", async () => {
      const client = await connect(caller(), { tool: 'switchboard_agent_echo' });
      const result = (await client.callTool({
        name: 'switchboard_agent_echo',
        arguments: { message: 'hello there' },
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toBe('hello there');
      expect(result.structuredContent).toMatchObject({ state: 'TASK_STATE_COMPLETED', taskId: expect.any(String) });
    });

    it('of an agent whose task fails is an error result with what the agent said', async () => {
      const client = await connect(caller(), { tool: 'switchboard_agent_code_reviewer' });
      const result = (await client.callTool({
        name: 'switchboard_agent_code_reviewer',
        arguments: { message: 'review this' },
      })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('Nothing to review.');
    });

    it('of an agent under the name earlier releases gave it runs the agent', async () => {
      const client = await connect(caller(), { tool: 'switchboard_agent_code-reviewer' });
      const result = (await client.callTool({
        name: 'switchboard_agent_code-reviewer',
        arguments: { message: 'review this' },
      })) as CallToolResult;
      expect(textOf(result)).toContain('Nothing to review.');
    });

    it("of a connected server's tool reaches that server", async () => {
      const client = await connect(caller(), { tool: 'mcp_fixture_echo' });
      const result = (await client.callTool({
        name: 'mcp_fixture_echo',
        arguments: { text: 'ping' },
      })) as CallToolResult;
      expect(textOf(result)).toBe('legacy:ping');
    });

    it("of a tool that does not exist, or that the caller's grants do not reach, is the protocol's unknown-tool error", async () => {
      const unknownTool = (name: string) => ({
        code: ProtocolErrorCode.InvalidParams,
        message: expect.stringContaining(`Tool ${name} not found`),
      });
      const anyone = await connect(caller(), { tool: 'switchboard_agent_nobody' });
      await expect(
        anyone.callTool({ name: 'switchboard_agent_nobody', arguments: { message: 'hi' } }),
      ).rejects.toMatchObject(unknownTool('switchboard_agent_nobody'));
      const reviewerOnly = caller(AccessScope.of({ tools: ['switchboard_agent_*'], agents: ['code-reviewer'] }));
      const agent = await connect(reviewerOnly, { tool: 'switchboard_agent_echo' });
      await expect(
        agent.callTool({ name: 'switchboard_agent_echo', arguments: { message: 'hi' } }),
      ).rejects.toMatchObject(unknownTool('switchboard_agent_echo'));
      const upstream = await connect(reviewerOnly, { tool: 'mcp_fixture_echo' });
      await expect(upstream.callTool({ name: 'mcp_fixture_echo', arguments: { text: 'ping' } })).rejects.toMatchObject(
        unknownTool('mcp_fixture_echo'),
      );
    });

    it("of an agent's tool without its message is an error result saying what is missing", async () => {
      const client = await connect(caller(), { tool: 'switchboard_agent_echo' });
      const result = (await client.callTool({ name: 'switchboard_agent_echo', arguments: {} })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/Invalid arguments for tool switchboard_agent_echo: message/);
    });
  });
});
