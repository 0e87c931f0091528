/**
 * MCP servers follow the live catalog: one added is connected and its tools are listed and callable
 * through `/mcp`, and a session opened before hears `notifications/tools/list_changed`; one changed
 * is replaced (its old process ends, a new one starts); one removed is closed (its process exits),
 * its tools leave the list, and a call to one of them answers a clear error.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpUnknownToolError } from '../../src/mcp-client/mcp-client.errors';
import { changeCatalog, catalogFrom } from '../support/live-catalog';
import { eventually } from '../support/eventually';
import { connectV1, textOf } from '../mcp-server/support/mcp-clients';
import { toolListWatch } from '../mcp-server/support/tool-list-watch';
import { startMcpApp, stdioServer, type McpTestApp } from './support/mcp-app';
import { childProcesses, EVERYTHING_SERVER, isAlive } from './support/mcp-servers';

const servers = (extra = '') => catalogFrom(stdioServer('live', EVERYTHING_SERVER, ['stdio'], extra)).mcp_servers;

describe('MCP servers of the live catalog', () => {
  let target: McpTestApp;
  let client: Client;
  const watch = toolListWatch();

  beforeAll(async () => {
    target = await startMcpApp('');
    ({ client } = await connectV1(target.url, { listChanged: watch.listChanged }));
  });

  afterAll(async () => {
    await client?.close();
    await target?.app.close();
  });

  it('connects a server once added: a session opened before is told, and its tools are callable through /mcp', async () => {
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('mcp_live_echo');
    changeCatalog(target.app, { mcp_servers: servers() });
    await watch.announced((names) => names.includes('mcp_live_echo'));
    const result = await client.callTool({ name: 'mcp_live_echo', arguments: { message: 'hello live' } });
    expect(textOf(result)).toBe('Echo: hello live');
    expect(childProcesses(EVERYTHING_SERVER)).toHaveLength(1);
  });

  it('replaces a server whose config changed: its process ends and a new one serves its tools', async () => {
    const [before] = childProcesses(EVERYTHING_SERVER);
    changeCatalog(target.app, { mcp_servers: servers('timeout_secs = 7') });
    await eventually(
      async () => isAlive(before),
      (alive) => !alive,
    );
    await eventually(
      async () => target.tools.list().map((tool) => tool.name),
      (names) => names.includes('mcp_live_echo'),
      15_000,
    );
    const [after] = childProcesses(EVERYTHING_SERVER);
    expect(after).not.toBe(before);
    expect(textOf(await client.callTool({ name: 'mcp_live_echo', arguments: { message: 'again' } }))).toBe(
      'Echo: again',
    );
  });

  it('closes a server once removed: its process exits, its tools leave the list, and calling one answers an error naming it', async () => {
    const [running] = childProcesses(EVERYTHING_SERVER);
    changeCatalog(target.app, { mcp_servers: [] });
    await watch.announced((names) => !names.some((name) => name.startsWith('mcp_live_')));
    await eventually(
      async () => isAlive(running),
      (alive) => !alive,
    );
    expect(childProcesses(EVERYTHING_SERVER)).toEqual([]);
    const answer = await client.callTool({ name: 'mcp_live_echo', arguments: { message: 'gone' } }).then(
      (result) => ({ isError: result.isError, text: textOf(result) }),
      (error: Error) => ({ isError: true, text: error.message }),
    );
    expect(answer).toEqual({ isError: true, text: expect.stringContaining('mcp_live_echo') });
    // What an agent's tool call meets.
    await expect(target.tools.call('mcp_live_echo', { message: 'gone' })).rejects.toThrow(McpUnknownToolError);
  });
});
