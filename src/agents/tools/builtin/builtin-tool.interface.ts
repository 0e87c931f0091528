import type { ToolDefinition, ToolResult } from '../tool-provider.interface';

/** One tool the service implements itself, served by BuiltinToolProvider. */
export interface BuiltinTool {
  readonly definition: ToolDefinition;
  call(args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult>;
}
