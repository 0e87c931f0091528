import { Inject, Injectable } from '@nestjs/common';
import { AgentHandlers } from '../../a2a-server/agent-handlers.service';
import { MCP_TOOL_SOURCE, McpToolSource } from '../../mcp-client/mcp-tool-source.interface';

/**
 * When the tools `/mcp` lists may have changed: a connected MCP server's tools (a server connected,
 * dropped, changed its list, or came or went with the catalog), or the hosted agents, each a
 * `switchboard_agent_*` tool. What pooled servers, live servers and clients' `list_changed` follow.
 */
@Injectable()
export class ToolListChanges {
  constructor(
    @Inject(MCP_TOOL_SOURCE) private readonly mcpTools: McpToolSource,
    private readonly handlers: AgentHandlers,
  ) {}

  /** Returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    const stops = [this.mcpTools.onChange(listener), this.handlers.onChange(listener)];
    return () => {
      for (const stop of stops) stop();
    };
  }
}
