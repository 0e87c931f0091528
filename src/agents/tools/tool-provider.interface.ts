/** A tool an agent may call, described as LLM providers take it (JSON Schema input). */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** What a tool call gave back, as text for the model; `isError` when the tool failed or refused. */
export interface ToolResult {
  text: string;
  isError: boolean;
}

/** A family of tools (MCP servers, built-ins, A2A delegation) behind one interface. */
export interface ToolProvider {
  definitions(): ToolDefinition[];
  /** Whether `name` is one of this provider's tools. */
  has(name: string): boolean;
  call(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult>;
}

export const TOOL_PROVIDERS = Symbol('TOOL_PROVIDERS');
