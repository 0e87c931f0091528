import type { ClientCapabilities } from '@modelcontextprotocol/server';

export const MCP_SESSION_STORE = Symbol('MCP_SESSION_STORE');

/** Sessions of 2025-era MCP clients (`Mcp-Session-Id`), shared by every API replica. */
export interface McpSessionStore {
  /** Starts a session owned by `owner` (the caller's principal), whose client declared `clientCapabilities` at `initialize`; returns its id. */
  open(owner: string, clientCapabilities: ClientCapabilities): Promise<string>;
  /** What the session's client declared (it may be asked for sampling or elicitation only if it did); undefined when the session is unknown. */
  clientCapabilities(sessionId: string): Promise<ClientCapabilities | undefined>;
  /** The owner of a live session, extending its life (a store may skip extending one it extended a moment ago); undefined when unknown, closed or expired. */
  owner(sessionId: string): Promise<string | undefined>;
  close(sessionId: string): Promise<void>;
  /** Sessions open now (neither closed nor expired), on every replica: what `switchboard_mcp_sessions` reports. */
  count(): Promise<number>;
  /**
   * Records the session's subscription to resource `uri` (`resources/subscribe`) with where the
   * task's event stream stood then (`ended` for a task that has ended), so the replica holding the
   * session's GET stream, wherever it is, misses no change. Lives and ends with the session.
   */
  subscribe(sessionId: string, uri: string, position: string): Promise<void>;
  unsubscribe(sessionId: string, uri: string): Promise<void>;
  /** The session's subscriptions: URI to the stream position at subscription. */
  subscriptions(sessionId: string): Promise<Map<string, string>>;
}

/** The position recorded for a task that had ended when it was subscribed to: there is nothing to follow. */
export const ENDED_POSITION = 'ended';
