import type { McpServerConfig } from '../config/config.schema';
import type { McpConnection } from './mcp-connection';
import { describeServers } from './mcp-servers.view';

function connection(transport: McpServerConfig['transport']): McpConnection {
  const status = {
    state: 'retrying',
    error: 'Connection closed',
    failures: 2,
    nextRetryAt: '2026-01-01T00:00:01.000Z',
  };
  const fake = {
    name: 'remote',
    connected: false,
    config: { name: 'remote', timeout_secs: 30, env: [], transport },
    status: () => status,
    stderr: ['fatal: no token'],
  };
  return fake as unknown as McpConnection;
}

function configured(transport: McpServerConfig['transport']) {
  return describeServers([connection(transport)], [], [], { stderr: false }).configured[0].transport;
}

const STDIO = {
  type: 'stdio' as const,
  command: 'npx',
  args: ['mcp-remote', 'https://user:s3cret@mcp.example.com/sse?key=s3cret'],
};

describe('GET /api/mcp/servers view', () => {
  it('shows a URL without its user info and query values, which may hold resolved secrets', () => {
    expect(configured({ type: 'sse', url: 'https://user:s3cret@mcp.example.com/sse?key=s3cret&mode=a' })).toEqual({
      type: 'sse',
      url: 'https://redacted@mcp.example.com/sse?key=%5Bredacted%5D&mode=%5Bredacted%5D',
    });
  });

  it('shows header names of a Streamable HTTP server, never their values', () => {
    expect(
      configured({ type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer s3cret' } }),
    ).toEqual({
      type: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: '[redacted]' },
    });
  });

  it('shows a URL among a stdio server’s arguments as it shows a remote server’s', () => {
    expect(configured(STDIO)).toEqual({
      ...STDIO,
      args: ['mcp-remote', 'https://redacted@mcp.example.com/sse?key=%5Bredacted%5D'],
    });
  });

  it('shows a stdio server’s last stderr lines to operators only, its failures and next attempt to all', () => {
    const [forCallers] = describeServers([connection(STDIO)], [], [], { stderr: false }).configured;
    const [forOperators] = describeServers([connection(STDIO)], [], [], { stderr: true }).configured;
    expect(forCallers.status).toEqual({
      state: 'retrying',
      error: 'Connection closed',
      failures: 2,
      nextRetryAt: '2026-01-01T00:00:01.000Z',
    });
    expect(forOperators.status).toEqual({ ...forCallers.status, stderr: ['fatal: no token'] });
  });
});
