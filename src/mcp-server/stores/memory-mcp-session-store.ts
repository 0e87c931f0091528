import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { randomUUID } from 'node:crypto';
import type { McpSessionStore } from './mcp-session-store.interface';

/** Sessions of one process: embedded mode, where one process is the whole service. */
export class MemoryMcpSessionStore implements McpSessionStore {
  private readonly sessions = new Map<
    string,
    { owner: string; clientCapabilities: ClientCapabilities; expiresAt: number; subscriptions: Map<string, string> }
  >();

  constructor(private readonly ttlMs: number) {}

  async open(owner: string, clientCapabilities: ClientCapabilities): Promise<string> {
    // Clients that leave without DELETE would otherwise stay for the life of the process.
    const now = Date.now();
    for (const [id, session] of this.sessions) if (session.expiresAt <= now) this.sessions.delete(id);
    const id = randomUUID();
    this.sessions.set(id, { owner, clientCapabilities, expiresAt: Date.now() + this.ttlMs, subscriptions: new Map() });
    return id;
  }

  async owner(sessionId: string): Promise<string | undefined> {
    const session = this.sessions.get(sessionId);
    if (!session || session.expiresAt <= Date.now()) {
      this.sessions.delete(sessionId);
      return undefined;
    }
    session.expiresAt = Date.now() + this.ttlMs;
    return session.owner;
  }

  async clientCapabilities(sessionId: string): Promise<ClientCapabilities | undefined> {
    return (await this.owner(sessionId)) === undefined ? undefined : this.sessions.get(sessionId)?.clientCapabilities;
  }

  async close(sessionId: string): Promise<void> {
    this.sessions.delete(sessionId);
  }

  async count(): Promise<number> {
    const now = Date.now();
    let open = 0;
    for (const session of this.sessions.values()) if (session.expiresAt > now) open++;
    return open;
  }

  async subscribe(sessionId: string, uri: string, position: string): Promise<void> {
    this.sessions.get(sessionId)?.subscriptions.set(uri, position);
  }

  async unsubscribe(sessionId: string, uri: string): Promise<void> {
    this.sessions.get(sessionId)?.subscriptions.delete(uri);
  }

  async subscriptions(sessionId: string): Promise<Map<string, string>> {
    const session = this.sessions.get(sessionId);
    return new Map(session && session.expiresAt > Date.now() ? session.subscriptions : []);
  }
}
