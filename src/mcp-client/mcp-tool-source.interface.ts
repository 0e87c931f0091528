import type {
  CallToolResult,
  CreateMessageRequest,
  ElicitRequest,
  LoggingMessageNotificationParams,
  Progress,
  Tool,
} from '@modelcontextprotocol/client';

export const MCP_TOOL_SOURCE = Symbol('MCP_TOOL_SOURCE');

/** A tool of a connected MCP server, as agents and LLM providers see it. */
export interface McpTool {
  /** `mcp_{server}_{tool}`: at most 64 characters of `[a-zA-Z0-9_-]`, shortened with a hash when needed. */
  name: string;
  /** The server's description, prefixed `[MCP:{server}]`. */
  description: string;
  /** JSON Schema of the arguments, as the server declared it. */
  inputSchema: Record<string, unknown>;
  /** As the server declared them, for MCP clients of `/mcp` (a gateway loses nothing). */
  title?: string;
  annotations?: Tool['annotations'];
  outputSchema?: Tool['outputSchema'];
  server: string;
  /** The tool's own name on its server. */
  serverToolName: string;
}

export interface McpCallOptions {
  signal?: AbortSignal;
  /** Capped by the server's `timeout_secs`. */
  timeoutMs?: number;
  /** The server's progress notifications for this call (asking for them gives the upstream request a progress token). */
  onprogress?: (progress: Progress) => void;
  /**
   * The server's log messages (`notifications/message`) while the call runs. A log message is not
   * tied to a request, so every call in flight on that server hears it.
   */
  onlog?: (message: LoggingMessageNotificationParams) => void;
  /**
   * Answers the server's `sampling/createMessage` and `elicitation/create` while the call runs, on
   * behalf of whoever made the call (its client or its agent's model). Without it, or if it throws,
   * the server gets an error saying why.
   */
  onrequest?: UpstreamRequestHandler;
  /** For a caller that keeps the upstream task of a call made as one, to follow it again after it died. */
  upstreamTask?: UpstreamTaskRecord;
}

/**
 * The MCP task a call runs as on its server (2025-11-25: a task-capable tool of a server that runs
 * tool calls as tasks): recorded by the caller when the server names it, and followed to its result,
 * instead of calling the tool again, by a caller that takes the call over.
 */
export interface UpstreamTaskRecord {
  /** A task an earlier run of this very call made: its result is awaited; the tool is not called. */
  follow?: string;
  /** Told the task's id once the server made it, before its result is awaited. */
  onCreated?: (taskId: string) => Promise<void>;
}

/** The requests a server may make of Switchboard during a call, which only the call's caller can answer. */
export type UpstreamRequest = CreateMessageRequest | ElicitRequest;
/** Resolves with the caller's answer as it gave it (a `CreateMessageResult` or an `ElicitResult`; the SDK checks its shape). */
export type UpstreamRequestHandler = (request: UpstreamRequest, signal: AbortSignal) => Promise<object>;

/** Every tool of the configured MCP servers, for the agents' tool pipeline. */
export interface McpToolSource {
  /** Tools of the servers connected right now. */
  list(): McpTool[];
  /** The tool of that namespaced name, if its server is connected right now: one lookup, whatever the catalog's size. */
  get(name: string): McpTool | undefined;
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
