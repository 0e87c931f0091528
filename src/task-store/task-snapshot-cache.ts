import { createHash } from 'node:crypto';
import { Task } from '@a2a-js/sdk';
import { type RedisService } from '../redis/redis.service';
import { execTransaction } from '../redis/redis-transaction';
import type { TaskScope } from './task-scope';
import type { VersionedTask } from './versioned-task-store.interface';

/** Bounds how long a snapshot can outlive a write whose cache refresh failed. */
const SNAPSHOT_TTL_MS = 10 * 60_000;
/** How long an evicted task stays uncacheable: longer than any read that began before the eviction. */
const TOMBSTONE_TTL_MS = 60_000;

/**
 * Stores a snapshot unless the cached one is at least as new or the task was evicted, in one step,
 * so that a reader holding an old version can never replace a newer one written meanwhile.
 * KEYS[1] task key; ARGV: version, snapshot, ttl ms.
 */
const PUT_IF_NEWER = `
local cached = redis.call('HMGET', KEYS[1], 'v', 'evicted')
if cached[2] then return 0 end
if cached[1] and tonumber(cached[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[1], 's', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;
const PUT_IF_NEWER_SHA = createHash('sha1').update(PUT_IF_NEWER).digest('hex');

interface Snapshot extends TaskScope {
  task: unknown;
  /** The task's agent, null for none; absent from snapshots written before agents were cached, which are read as missing. */
  agent?: string | null;
}

export interface CachedTask extends VersionedTask {
  scope: TaskScope;
}

/** Versioned task snapshots in Redis: one hash per task holding its version and Task.toJSON with its scope and agent. */
export class TaskSnapshotCache {
  constructor(private readonly redis: RedisService) {}

  async get(taskId: string): Promise<CachedTask | undefined> {
    const [version, snapshot] = await this.redis.client.hmget(this.key(taskId), 'v', 's');
    if (version === null || snapshot === null) return undefined;
    const { tenant, owner, task, agent } = JSON.parse(snapshot) as Snapshot;
    if (agent === undefined) return undefined;
    return {
      scope: { tenant, owner },
      task: Task.fromJSON(task),
      version: Number(version),
      ...(agent !== null && { agent }),
    };
  }

  async put(scope: TaskScope, { task, version, agent }: VersionedTask): Promise<void> {
    const snapshot: Snapshot = { ...scope, task: Task.toJSON(task), agent: agent ?? null };
    const args = [this.key(task.id), version, JSON.stringify(snapshot), SNAPSHOT_TTL_MS];
    try {
      await this.redis.client.evalsha(PUT_IF_NEWER_SHA, 1, ...args);
    } catch (error) {
      if (!(error as Error).message.startsWith('NOSCRIPT')) throw error;
      await this.redis.client.eval(PUT_IF_NEWER, 1, ...args);
    }
  }

  /** Replaces snapshots with short-lived tombstones, so a read already under way cannot bring them back. */
  async evict(taskIds: string[]): Promise<void> {
    const transaction = this.redis.client.multi();
    for (const id of taskIds) {
      const key = this.key(id);
      transaction.del(key).hset(key, 'evicted', '1').pexpire(key, TOMBSTONE_TTL_MS);
    }
    await execTransaction(transaction);
  }

  private key(taskId: string): string {
    return this.redis.key('task', taskId);
  }
}
