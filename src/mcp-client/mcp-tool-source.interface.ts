import type { CallToolResult } from '@modelcontextprotocol/client';

export const MCP_TOOL_SOURCE = Symbol('MCP_TOOL_SOURCE');

/** A tool of a connected MCP server, as agents and LLM providers see it. */
export interface McpTool {
  /** `mcp_{server}_{tool}`: at most 64 characters of `[a-zA-Z0-9_-]`, shortened with a hash when needed. */
  name: string;
  /** The server's description, prefixed `[MCP:{server}]`. */
  description: string;
  /** JSON Schema of the arguments, as the server declared it. */
  inputSchema: Record<string, unknown>;
  server: string;
  /** The tool's own name on its server. */
  serverToolName: string;
}

export interface McpCallOptions {
  signal?: AbortSignal;
  /** Capped by the server's `timeout_secs`. */
  timeoutMs?: number;
}

/** Every tool of the configured MCP servers, for the agents' tool pipeline. */
export interface McpToolSource {
  /** Tools of the servers connected right now. */
  list(): McpTool[];
  /**
   * Calls `listener` whenever `list()` may have changed: a server connected, dropped, or announced
   * a new list. Returns the unsubscribe function.
   */
  onChange(listener: () => void): () => void;
  /**
   * The configured server a namespaced tool name belongs to, also while that server is down and its
   * tools are not listed (known by their name's `mcp_{server}_` prefix); undefined for other names.
   */
  serverOf(name: string): string | undefined;
  /**
   * Calls a tool by its namespaced name (a tool of a server that is down fails naming the server). A tool's own failure is a result with `isError`; throws
   * McpUnknownToolError, McpServerUnavailableError, McpToolTimeoutError, or the signal's reason.
   */
  call(name: string, args: Record<string, unknown>, options?: McpCallOptions): Promise<CallToolResult>;
}
