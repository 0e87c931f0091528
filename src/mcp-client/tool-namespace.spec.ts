import type { Tool } from '@modelcontextprotocol/client';
import { MAX_TOOL_NAME_LENGTH, namespacedToolName, namespaceTools } from './tool-namespace';

const tool = (name: string, description?: string): Tool => ({ name, description, inputSchema: { type: 'object' } });

describe('namespacedToolName', () => {
  it("follows the seed's examples", () => {
    expect(namespacedToolName('github', 'create_issue')).toBe('mcp_github_create_issue');
    expect(namespacedToolName('my-server', 'do_thing')).toBe('mcp_my_server_do_thing');
  });

  it('lowercases and turns hyphens into underscores', () => {
    expect(namespacedToolName('Everything', 'get-Env')).toBe('mcp_everything_get_env');
  });

  it('replaces characters providers refuse and marks the name with a hash', () => {
    const name = namespacedToolName('fs', 'read.file v2');
    expect(name).toMatch(/^mcp_fs_read_file_v2_[0-9a-f]{8}$/);
  });

  it('cuts a long name to 64 characters, deterministically and distinctly', () => {
    const long = 'x'.repeat(80);
    const first = namespacedToolName('server', `${long}_a`);
    expect(first).toHaveLength(MAX_TOOL_NAME_LENGTH);
    expect(first).toMatch(/^mcp_server_x+_[0-9a-f]{8}$/);
    expect(namespacedToolName('server', `${long}_a`)).toBe(first);
    expect(namespacedToolName('server', `${long}_b`)).not.toBe(first);
  });

  it('keeps a name of exactly 64 characters as it is', () => {
    const tool64 = 'y'.repeat(MAX_TOOL_NAME_LENGTH - 'mcp_s_'.length);
    expect(namespacedToolName('s', tool64)).toBe(`mcp_s_${tool64}`);
  });
});

describe('namespaceTools', () => {
  it('keeps the mapping to the server and its own tool name, and prefixes descriptions', () => {
    const { tools, collisions } = namespaceTools([
      { server: 'github', tools: [tool('create-issue', 'Create a GitHub issue')] },
    ]);
    expect(collisions).toEqual([]);
    expect(tools).toEqual([
      {
        name: 'mcp_github_create_issue',
        description: '[MCP:github] Create a GitHub issue',
        inputSchema: { type: 'object' },
        server: 'github',
        serverToolName: 'create-issue',
      },
    ]);
  });

  it('reports a collision within a server and keeps the first tool', () => {
    const { tools, collisions } = namespaceTools([
      { server: 's', tools: [tool('do-thing', 'first'), tool('do_thing', 'second')] },
    ]);
    expect(tools.map((t) => [t.name, t.serverToolName])).toEqual([['mcp_s_do_thing', 'do-thing']]);
    expect(collisions).toEqual([
      { name: 'mcp_s_do_thing', server: 's', tool: 'do_thing', takenBy: { server: 's', tool: 'do-thing' } },
    ]);
  });

  it('reports a collision across servers, the earlier server keeping the name', () => {
    const { tools, collisions } = namespaceTools([
      { server: 'my-server', tools: [tool('x')] },
      { server: 'my', tools: [tool('server_x'), tool('y')] },
    ]);
    expect(tools.map((t) => `${t.server}/${t.serverToolName}`)).toEqual(['my-server/x', 'my/y']);
    expect(collisions).toEqual([
      { name: 'mcp_my_server_x', server: 'my', tool: 'server_x', takenBy: { server: 'my-server', tool: 'x' } },
    ]);
  });
});
