import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { randomUUID } from 'node:crypto';
import { RedisService } from '../redis/redis.service';
import { execTransaction } from '../task-store/redis-transaction';
import type { McpSessionStore } from './mcp-session-store.interface';

/** Sessions in Redis with a sliding TTL: a client keeps its session whichever replica answers it. */
export class RedisMcpSessionStore implements McpSessionStore {
  constructor(
    private readonly redis: RedisService,
    private readonly ttlSecs: number,
  ) {}

  async open(owner: string, clientCapabilities: ClientCapabilities): Promise<string> {
    const id = randomUUID();
    const multi = this.redis.client.multi().set(this.sessionKey(id), owner, 'EX', this.ttlSecs);
    await execTransaction(multi.set(this.capabilitiesKey(id), JSON.stringify(clientCapabilities), 'EX', this.ttlSecs));
    return id;
  }

  async clientCapabilities(sessionId: string): Promise<ClientCapabilities | undefined> {
    const value = await this.redis.client.get(this.capabilitiesKey(sessionId));
    return value ? (JSON.parse(value) as ClientCapabilities) : undefined;
  }

  async owner(sessionId: string): Promise<string | undefined> {
    const key = this.sessionKey(sessionId);
    const [owner] = await execTransaction(this.redis.client.multi().get(key).expire(key, this.ttlSecs).expire(this.subscriptionsKey(sessionId), this.ttlSecs).expire(this.capabilitiesKey(sessionId), this.ttlSecs));
    return (owner as string | null) ?? undefined;
  }

  async close(sessionId: string): Promise<void> {
    await this.redis.client.del(this.sessionKey(sessionId), this.subscriptionsKey(sessionId), this.capabilitiesKey(sessionId));
  }

  async subscribe(sessionId: string, uri: string, position: string): Promise<void> {
    const key = this.subscriptionsKey(sessionId);
    await execTransaction(this.redis.client.multi().hset(key, uri, position).expire(key, this.ttlSecs));
  }

  async unsubscribe(sessionId: string, uri: string): Promise<void> {
    await this.redis.client.hdel(this.subscriptionsKey(sessionId), uri);
  }

  async subscriptions(sessionId: string): Promise<Map<string, string>> {
    return new Map(Object.entries(await this.redis.client.hgetall(this.subscriptionsKey(sessionId))));
  }

  private sessionKey(sessionId: string): string {
    return this.redis.key('mcp', 'session', sessionId);
  }

  private capabilitiesKey(sessionId: string): string {
    return this.redis.key('mcp', 'capabilities', sessionId);
  }

  /** A hash of the session's subscribed URIs, each with the task stream's position at subscription. */
  private subscriptionsKey(sessionId: string): string {
    return this.redis.key('mcp', 'subscriptions', sessionId);
  }
}
