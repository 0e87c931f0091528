import type { McpServerConfig } from '../config/config.schema';
import { createGuardedFetch } from '../security/guarded-fetch';
import { UpstreamCredentials } from '../security/oauth/upstream-credentials';
import { upstreamFetch } from '../security/oauth/upstream-fetch';
import type { OutboundUrlPolicy } from '../security/outbound-url-policy';
import { McpConnection } from './mcp-connection';
import { createMcpTransport } from './mcp-transport.factory';

/**
 * A connection to `server` (not started) whose HTTP goes through the SSRF-guarded fetch, within the
 * server's timeout and with its credentials (an OAuth token got when it asks for one).
 */
export function createMcpConnection(
  server: McpServerConfig,
  policy: OutboundUrlPolicy,
  onListsChanged: () => void,
): McpConnection {
  const guarded = createGuardedFetch(policy, { timeoutMs: server.timeout_secs * 1000 });
  const upstream = `MCP server "${server.name}"`;
  const auth = server.transport.type === 'stdio' ? undefined : server.transport.auth;
  const fetch = upstreamFetch(guarded, upstream, auth && new UpstreamCredentials(upstream, auth, guarded));
  return new McpConnection(server, (onStderr) => createMcpTransport(server, fetch, onStderr), onListsChanged);
}
