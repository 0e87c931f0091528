export const MCP_SESSION_STORE = Symbol('MCP_SESSION_STORE');

/** The task an in-flight `tools/call` of an agent tool runs. */
export interface RunningCall {
  agent: string;
  taskId: string;
}

/**
 * Sessions of 2025-era MCP clients (`Mcp-Session-Id`), shared by every API replica, and the tasks
 * their in-flight tool calls run, so a `notifications/cancelled` landing on any replica finds its task.
 */
export interface McpSessionStore {
  /** Starts a session owned by `owner` (the caller's principal); returns its id. */
  open(owner: string): Promise<string>;
  /** The owner of a live session, extending its life; undefined when unknown, closed or expired. */
  owner(sessionId: string): Promise<string | undefined>;
  close(sessionId: string): Promise<void>;
  trackCall(sessionId: string, requestId: string, call: RunningCall): Promise<void>;
  runningCall(sessionId: string, requestId: string): Promise<RunningCall | undefined>;
  untrackCall(sessionId: string, requestId: string): Promise<void>;
}
