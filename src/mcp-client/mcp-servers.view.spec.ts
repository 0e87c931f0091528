import type { McpServerConfig } from '../config/config.schema';
import type { McpConnection } from './mcp-connection';
import { describeServers } from './mcp-servers.view';

function configured(transport: McpServerConfig['transport']) {
  const connection = { name: 'remote', connected: false, config: { name: 'remote', timeout_secs: 30, env: [], transport }, status: () => ({ state: 'connecting' }) };
  return describeServers([connection as unknown as McpConnection], [], []).configured[0].transport;
}

describe('GET /api/mcp/servers view', () => {
  it('shows a URL without its user info and query values, which may hold resolved secrets', () => {
    expect(configured({ type: 'sse', url: 'https://user:s3cret@mcp.example.com/sse?key=s3cret&mode=a' })).toEqual({
      type: 'sse',
      url: 'https://redacted@mcp.example.com/sse?key=%5Bredacted%5D&mode=%5Bredacted%5D',
    });
  });

  it('shows header names of a Streamable HTTP server, never their values', () => {
    expect(configured({ type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer s3cret' } })).toEqual({
      type: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: '[redacted]' },
    });
  });
});
