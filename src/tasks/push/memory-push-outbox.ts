import type { PendingNotification, PushOutbox } from './push-outbox.interface';

/** Outboxes within one process (embedded mode). */
export class MemoryPushOutbox implements PushOutbox {
  private readonly outboxes = new Map<string, PendingNotification[]>();
  private readonly claims = new Map<string, { holder: string; until: number }>();

  async append(
    taskId: string,
    configId: string,
    notifications: Pick<PendingNotification, 'body' | 'contentType'>[],
  ): Promise<void> {
    const key = keyOf(taskId, configId);
    const outbox = this.outboxes.get(key) ?? [];
    outbox.push(...notifications.map((notification) => ({ ...notification, attempts: 0, retryAt: 0 })));
    this.outboxes.set(key, outbox);
  }

  async claim(taskId: string, configId: string, holder: string, ttlMs: number): Promise<boolean> {
    const key = keyOf(taskId, configId);
    const current = this.claims.get(key);
    if (current && current.until > Date.now()) return false;
    this.claims.set(key, { holder, until: Date.now() + ttlMs });
    return true;
  }

  async renew(taskId: string, configId: string, holder: string, ttlMs: number): Promise<void> {
    const claim = this.claims.get(keyOf(taskId, configId));
    if (claim?.holder === holder) claim.until = Date.now() + ttlMs;
  }

  async release(taskId: string, configId: string, holder: string): Promise<void> {
    const key = keyOf(taskId, configId);
    if (this.claims.get(key)?.holder === holder) this.claims.delete(key);
  }

  async head(taskId: string, configId: string): Promise<PendingNotification | undefined> {
    const head = this.outboxes.get(keyOf(taskId, configId))?.[0];
    return head && { ...head };
  }

  async shift(taskId: string, configId: string): Promise<void> {
    const key = keyOf(taskId, configId);
    const outbox = this.outboxes.get(key);
    outbox?.shift();
    if (outbox?.length === 0) this.outboxes.delete(key);
  }

  async updateHead(taskId: string, configId: string, head: PendingNotification): Promise<void> {
    const outbox = this.outboxes.get(keyOf(taskId, configId));
    if (outbox?.length) outbox[0] = { ...head };
  }

  async clear(taskId: string, configId: string): Promise<void> {
    this.outboxes.delete(keyOf(taskId, configId));
  }
}

function keyOf(taskId: string, configId: string): string {
  return JSON.stringify([taskId, configId]);
}
