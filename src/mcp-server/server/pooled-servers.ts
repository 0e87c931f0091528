import type { McpServer } from '@modelcontextprotocol/server';

/** Servers kept idle at most, over all tools and eras; more are left to the garbage collector. */
const MAX_IDLE_SERVERS = 256;

/** What a pooled server's tool handler runs its call in, so the server is not reused while the call goes on. */
export type TrackCall = <T>(call: () => Promise<T>) => Promise<T>;

interface PooledServer {
  server: McpServer;
  key: string;
  generation: number;
  /** Between being handed out and its exchange's close. */
  serving: boolean;
  calls: number;
}

/**
 * Servers for one kind of request, kept for the next request of that kind (a `tools/call` of one
 * connected server's tool, a listing for one scope): building one (an MCP server with its handlers
 * and its tools' schemas) costs more than the request's own work on `/mcp`. Such a server holds
 * nothing of its caller that its requests use. It goes back to the pool once its exchange is closed
 * and its call, if any, has returned, so nothing a call still sends can reach the exchange of the next.
 */
export class PooledServers {
  private readonly idle = new Map<string, PooledServer[]>();
  private idleCount = 0;
  private generation = 0;

  /** A server for one request, idle or built by `build`; `key` names what `build` builds. */
  acquire(key: string, build: (track: TrackCall) => McpServer): McpServer {
    const pooled = this.idle.get(key)?.pop() ?? this.built(key, build);
    if (!pooled.serving) this.idleCount -= 1;
    pooled.serving = true;
    return pooled.server;
  }

  /** Forgets the idle servers and those in use: what they were built from changed. */
  clear(): void {
    this.generation += 1;
    this.idle.clear();
    this.idleCount = 0;
  }

  private built(key: string, build: (track: TrackCall) => McpServer): PooledServer {
    const pooled: PooledServer = {
      server: undefined as unknown as McpServer,
      key,
      generation: this.generation,
      serving: true,
      calls: 0,
    };
    const track: TrackCall = async (call) => {
      pooled.calls += 1;
      try {
        return await call();
      } finally {
        pooled.calls -= 1;
        this.releaseIfDone(pooled);
      }
    };
    pooled.server = build(track);
    pooled.server.server.onclose = () => {
      pooled.serving = false;
      this.releaseIfDone(pooled);
    };
    return pooled;
  }

  private releaseIfDone(pooled: PooledServer): void {
    if (
      pooled.serving ||
      pooled.calls > 0 ||
      pooled.generation !== this.generation ||
      this.idleCount >= MAX_IDLE_SERVERS
    )
      return;
    const idle = this.idle.get(pooled.key) ?? [];
    if (idle.includes(pooled)) return;
    this.idle.set(pooled.key, idle);
    idle.push(pooled);
    this.idleCount += 1;
  }
}
