import type { ToolCallContext, ToolDefinition, ToolResult } from '../tool-provider.interface';

/** One delegation tool: it acts for the agent turn calling it. */
export interface DelegationTool {
  readonly definition: ToolDefinition;
  call(args: Record<string, unknown>, signal: AbortSignal, caller: ToolCallContext): Promise<ToolResult>;
}
