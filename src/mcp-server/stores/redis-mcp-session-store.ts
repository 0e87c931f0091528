import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { ChainableCommander } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { type RedisService } from '../../redis/redis.service';
import { execTransaction } from '../../redis/redis-transaction';
import type { McpSessionStore } from './mcp-session-store.interface';

/** A session's TTL is extended by a request at most this often (as a share of the TTL); the requests in between only read it. */
const REFRESH_SHARE_OF_TTL = 0.1;
/** Sessions whose last extension this process remembers; past it, it forgets them all (and extends them once more). */
const MAX_REMEMBERED_REFRESHES = 10_000;

/**
 * Sessions in Redis with a sliding TTL: a client keeps its session whichever replica answers it.
 * A sorted set holds every session's expiry, moved with it, so that counting them takes no scan.
 */
export class RedisMcpSessionStore implements McpSessionStore {
  /** When this process last extended each session. */
  private readonly refreshedAt = new Map<string, number>();

  constructor(
    private readonly redis: RedisService,
    private readonly ttlSecs: number,
  ) {}

  async open(owner: string, clientCapabilities: ClientCapabilities): Promise<string> {
    const id = randomUUID();
    const multi = this.redis.client.multi().set(this.sessionKey(id), owner, 'EX', this.ttlSecs);
    multi.set(this.capabilitiesKey(id), JSON.stringify(clientCapabilities), 'EX', this.ttlSecs);
    // Sessions left without DELETE leave the set here too, should nobody count them.
    await execTransaction(this.withoutExpired(multi).zadd(this.expiriesKey(), this.expiry(), id));
    return id;
  }

  async clientCapabilities(sessionId: string): Promise<ClientCapabilities | undefined> {
    const value = await this.redis.client.get(this.capabilitiesKey(sessionId));
    return value ? (JSON.parse(value) as ClientCapabilities) : undefined;
  }

  async owner(sessionId: string): Promise<string | undefined> {
    const key = this.sessionKey(sessionId);
    const now = Date.now();
    if (now - (this.refreshedAt.get(sessionId) ?? -Infinity) < this.ttlSecs * 1000 * REFRESH_SHARE_OF_TTL)
      return (await this.redis.client.get(key)) ?? undefined;
    if (this.refreshedAt.size >= MAX_REMEMBERED_REFRESHES) this.refreshedAt.clear();
    this.refreshedAt.set(sessionId, now);
    const multi = this.redis.client
      .multi()
      .get(key)
      .expire(key, this.ttlSecs)
      .expire(this.subscriptionsKey(sessionId), this.ttlSecs)
      .expire(this.capabilitiesKey(sessionId), this.ttlSecs);
    // In the same round trip (so without knowing whether the session is alive): an expired session
    // not yet pruned from the set, named again, stays counted for one more TTL.
    const [owner] = await execTransaction(multi.zadd(this.expiriesKey(), 'XX', this.expiry(), sessionId));
    return (owner as string | null) ?? undefined;
  }

  async close(sessionId: string): Promise<void> {
    this.refreshedAt.delete(sessionId);
    const multi = this.redis.client
      .multi()
      .del(this.sessionKey(sessionId), this.subscriptionsKey(sessionId), this.capabilitiesKey(sessionId));
    await execTransaction(multi.zrem(this.expiriesKey(), sessionId));
  }

  async count(): Promise<number> {
    const [, open] = await execTransaction(this.withoutExpired(this.redis.client.multi()).zcard(this.expiriesKey()));
    return open as number;
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

  private withoutExpired(multi: ChainableCommander): ChainableCommander {
    return multi.zremrangebyscore(this.expiriesKey(), '-inf', Date.now());
  }

  private expiry(): number {
    return Date.now() + this.ttlSecs * 1000;
  }

  /** Every open session's expiry (ms since the epoch), by session id. */
  private expiriesKey(): string {
    return this.redis.key('mcp', 'session-expiries');
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
