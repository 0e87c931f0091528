import { createHash } from 'node:crypto';
import { execTransaction } from '../../redis/redis-transaction';
import type { RedisService } from '../../redis/redis.service';
import { type PendingNotification, PUSH_OUTBOX_TTL_SECS, type PushOutbox } from './push-outbox.interface';

/** Renews or deletes the claim only for the holder that has it. */
const RENEW =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0";
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

/** Outboxes shared by every worker: a Redis list of JSON notifications per task and webhook, and a claim key beside it. */
export class RedisPushOutbox implements PushOutbox {
  constructor(private readonly redis: RedisService) {}

  async append(
    taskId: string,
    configId: string,
    notifications: Pick<PendingNotification, 'body' | 'contentType'>[],
  ): Promise<void> {
    const key = this.listKey(taskId, configId);
    const entries = notifications.map((notification) => JSON.stringify({ ...notification, attempts: 0, retryAt: 0 }));
    await execTransaction(
      this.redis.client
        .multi()
        .rpush(key, ...entries)
        .expire(key, PUSH_OUTBOX_TTL_SECS),
    );
  }

  async claim(taskId: string, configId: string, holder: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.client.set(this.claimKey(taskId, configId), holder, 'PX', ttlMs, 'NX')) === 'OK';
  }

  async renew(taskId: string, configId: string, holder: string, ttlMs: number): Promise<void> {
    await this.redis.client.eval(RENEW, 1, this.claimKey(taskId, configId), holder, String(ttlMs));
  }

  async release(taskId: string, configId: string, holder: string): Promise<void> {
    await this.redis.client.eval(RELEASE, 1, this.claimKey(taskId, configId), holder);
  }

  async head(taskId: string, configId: string): Promise<PendingNotification | undefined> {
    const head = await this.redis.client.lindex(this.listKey(taskId, configId), 0);
    return head === null ? undefined : (JSON.parse(head) as PendingNotification);
  }

  async shift(taskId: string, configId: string): Promise<void> {
    await this.redis.client.lpop(this.listKey(taskId, configId));
  }

  async updateHead(taskId: string, configId: string, head: PendingNotification): Promise<void> {
    await this.redis.client.lset(this.listKey(taskId, configId), 0, JSON.stringify(head));
  }

  async clear(taskId: string, configId: string): Promise<void> {
    await this.redis.client.unlink(this.listKey(taskId, configId));
  }

  /** Hashed: task and config ids are the clients' and may hold anything. */
  private listKey(taskId: string, configId: string): string {
    return this.redis.key('push-outbox', idOf(taskId, configId));
  }

  private claimKey(taskId: string, configId: string): string {
    return this.redis.key('push-outbox-claim', idOf(taskId, configId));
  }
}

function idOf(taskId: string, configId: string): string {
  return createHash('sha256').update(taskId).update('\0').update(configId).digest('base64url');
}
