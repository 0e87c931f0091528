import type { McpServerConfig } from '../config/config.schema';
import { redactedUrl, withUrlsRedacted } from '../security/redacted-url';
import type { McpConnection, McpConnectionStatus } from './mcp-connection';
import type { McpTool } from './mcp-tool-source.interface';
import type { ToolNameCollision } from './tool-namespace';

/** A server's status as shown: operators also get a stdio server's last stderr lines. */
export type McpServerStatusView = McpConnectionStatus & { stderr?: string[] };

/** `GET /api/mcp/servers`: the OpenFang seed's shape, plus each server's status and any name collisions. */
export interface McpServersView {
  configured: (Omit<McpServerConfig, 'env_values'> & { status: McpServerStatusView })[];
  connected: {
    name: string;
    tools_count: number;
    tools: { name: string; description: string }[];
    connected: true;
    era?: string;
    protocol_version?: string;
  }[];
  collisions: ToolNameCollision[];
}

export function describeServers(
  connections: McpConnection[],
  tools: McpTool[],
  collisions: ToolNameCollision[],
  show: { stderr: boolean },
): McpServersView {
  return {
    configured: connections.map((connection) => {
      // The environment's values are secrets (tokens); the whitelist in `env` names them.
      const { env_values: _values, ...config } = connection.config;
      const stderr = show.stderr && config.transport.type === 'stdio' ? { stderr: connection.stderr } : {};
      return { ...config, transport: withoutSecrets(config.transport), status: { ...connection.status(), ...stderr } };
    }),
    connected: connections
      .filter((connection) => connection.connected)
      .map((connection) => {
        const own = tools.filter((tool) => tool.server === connection.name);
        const { era, protocolVersion } = connection.status();
        return {
          name: connection.name,
          tools_count: own.length,
          tools: own.map(({ name, description }) => ({ name, description })),
          connected: true,
          era,
          protocol_version: protocolVersion,
        };
      }),
    collisions,
  };
}

/**
 * Where credentials go in a remote server's config (`${VAR}` references, already resolved): header
 * values, a URL's user info and query values, and an OAuth client's secret. Only their names are
 * shown. A stdio server takes its secrets through its `env` whitelist, whose values are never shown;
 * a URL among its arguments (`mcp-remote https://...?token=`) is shown as a remote server's is.
 */
function withoutSecrets(transport: McpServerConfig['transport']): McpServerConfig['transport'] {
  if (transport.type === 'stdio') return { ...transport, args: transport.args.map(withUrlsRedacted) };
  const url = redactedUrl(transport.url);
  const auth = transport.auth && { ...transport.auth, client_secret: '[redacted]' };
  if (transport.type === 'sse') return { ...transport, url, auth };
  return {
    ...transport,
    url,
    auth,
    headers: Object.fromEntries(Object.keys(transport.headers).map((name) => [name, '[redacted]'])),
  };
}
