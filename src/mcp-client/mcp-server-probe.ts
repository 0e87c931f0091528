import type { Tool } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../config/config.schema';
import type { OutboundUrlPolicy } from '../security/outbound-url-policy';
import { McpServerUnavailableError } from './mcp-client.errors';
import { createMcpConnection } from './mcp-connection.factory';

/**
 * Connects to `server` once, as the catalog would (SSRF rules, credentials, a stdio server started
 * and ended), and answers the tools it lists; closed again either way, never retried. Fails with
 * why within the server's timeout.
 */
export async function listToolsOnce(server: McpServerConfig, policy: OutboundUrlPolicy): Promise<Tool[]> {
  const connection = createMcpConnection(server, policy, () => undefined);
  const timeoutMs = server.timeout_secs * 1000;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
  try {
    connection.start();
    await Promise.race([connection.attempted(), deadline]);
    if (connection.connected) return connection.tools;
    throw new McpServerUnavailableError(
      server.name,
      connection.status().error ?? `no answer within ${server.timeout_secs} s`,
    );
  } finally {
    clearTimeout(timer);
    await connection.close();
  }
}
