import { Inject, Injectable } from '@nestjs/common';
import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import { ToolPipeline } from '../agents/tools/tool-pipeline.service';
import { MCP_TOOL_SOURCE, McpToolSource } from '../mcp-client/mcp-tool-source.interface';
import { CALL_TOOL_RESULT_LIMITER } from './call-tool-result-limiter';
import type { McpCaller } from './mcp-caller';

/**
 * A tool of a connected MCP server called by an MCP client of `/mcp`: under the tools' limits
 * (`tools.timeout_secs`, `tools.max_result_chars`) as an agent's call is. An unavailable or slow
 * upstream is the tool's failure (`isError`), not a protocol error.
 */
@Injectable()
export class UpstreamToolCall {
  constructor(
    @Inject(MCP_TOOL_SOURCE) private readonly mcpTools: McpToolSource,
    private readonly toolPipeline: ToolPipeline,
  ) {}

  run(name: string, args: Record<string, unknown>, caller: McpCaller, ctx: ServerContext): Promise<CallToolResult> {
    return this.toolPipeline.bounded(name, `mcp:${caller.owner}`, ctx.mcpReq.signal, CALL_TOOL_RESULT_LIMITER, (signal) => this.mcpTools.call(name, args, { signal }));
  }
}
