import {
  type CallToolResult,
  fromJsonSchema,
  type InputRequiredResult,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { McpToolSource } from '../../mcp-client/mcp-tool-source.interface';

const ANY_ARGUMENTS = fromJsonSchema({ type: 'object' });

/**
 * A call to a tool of a connected MCP server that is down (so its tools are not listed) is the
 * server's failure, named with its state (`isError`), not an unknown tool: `call` answers it. Only
 * for a server that serves this one call, so the tool stays unlisted.
 */
export function registerUnavailableMcpTool(
  server: McpServer,
  name: string,
  mcpTools: McpToolSource,
  call: (args: Record<string, unknown>, ctx: ServerContext) => Promise<CallToolResult | InputRequiredResult>,
): void {
  if (mcpTools.serverOf(name) === undefined) return;
  server.registerTool(name, { inputSchema: ANY_ARGUMENTS }, (args, ctx) => call(args as Record<string, unknown>, ctx));
}
