import { Logger } from '@nestjs/common';
import type { ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { type RedisService } from '../redis/redis.service';
import type { OperatorTaskPage, OperatorTaskQuery, TaskRecord } from './operator-query';
import type {
  EvictionListener,
  IdleTaskQuery,
  RetentionPolicy,
  ScopedTask,
  TaskStore,
  TaskWrite,
} from './task-store.interface';
import { sameScope, taskScope, type TaskScope } from './task-scope';
import { TaskSnapshotCache } from './task-snapshot-cache';
import { readableTask, taskWrite } from './versioned-task-store.base';
import type { VersionedTask, VersionedTaskStore, VersionedTaskWrite } from './versioned-task-store.interface';

/**
 * Serves `load` from task snapshots cached in Redis, in front of a durable store that stays the
 * source of truth for everything else. Every write goes to the inner store first, then refreshes the
 * snapshot with the version the write produced; the cache keeps only the newest version it has seen,
 * and evicted tasks leave tombstones, so a slow reader can never put back an older or deleted task.
 *
 * Redis trouble never fails a call: reads fall back to the store, and a failed refresh or eviction
 * leaves the previous snapshot for at most the snapshot TTL.
 */
export class CachedTaskStore implements TaskStore {
  private readonly logger = new Logger(CachedTaskStore.name);
  readonly inProcess = false;
  private readonly cache: TaskSnapshotCache;

  constructor(
    private readonly inner: VersionedTaskStore,
    redis: RedisService,
  ) {
    this.cache = new TaskSnapshotCache(redis);
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const scope = taskScope(context);
    const cached = await this.cache.get(taskId).catch((error: Error) => this.warn('read', taskId, error));
    if (cached) return sameScope(cached.scope, scope) ? readableTask(cached, context) : undefined;
    const loaded = await this.inner.loadVersioned(taskId, context);
    if (loaded) await this.refresh(scope, loaded);
    return readableTask(loaded, context);
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    await this.refresh(taskScope(context), await this.inner.saveVersioned(task, context));
  }

  async saveUnlessEnded(task: Task, context: ServerCallContext): Promise<TaskWrite> {
    return this.refreshed(context, await this.inner.saveUnlessEndedVersioned(task, context));
  }

  async saveUnlessTurnRecorded(task: Task, messageId: string, context: ServerCallContext): Promise<TaskWrite> {
    return this.refreshed(context, await this.inner.saveUnlessTurnRecordedVersioned(task, messageId, context));
  }

  list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.inner.list(params, context);
  }

  countByState(): Promise<Record<string, number>> {
    return this.inner.countByState();
  }

  countByStateSince(since: Date): Promise<Record<string, number>> {
    return this.inner.countByStateSince(since);
  }

  listAcrossScopes(query: OperatorTaskQuery): Promise<OperatorTaskPage> {
    return this.inner.listAcrossScopes(query);
  }

  findAnywhere(taskId: string): Promise<TaskRecord | undefined> {
    return this.inner.findAnywhere(taskId);
  }

  findIdle(query: IdleTaskQuery): Promise<ScopedTask[]> {
    return this.inner.findIdle(query);
  }

  applyRetention(policy: RetentionPolicy, onEvicted?: EvictionListener): Promise<number> {
    return this.inner.applyRetention(policy, async (taskIds) => {
      await this.cache.evict(taskIds).catch((error: Error) => this.warn('evict', taskIds.join(','), error));
      await onEvicted?.(taskIds);
    });
  }

  /** A conditional write's outcome, once the cache holds what the store holds. */
  private async refreshed(context: ServerCallContext, stored: VersionedTaskWrite): Promise<TaskWrite> {
    await this.refresh(taskScope(context), stored);
    return taskWrite(stored);
  }

  private async refresh(scope: TaskScope, versioned: VersionedTask): Promise<void> {
    await this.cache.put(scope, versioned).catch((error: Error) => this.warn('refresh', versioned.task.id, error));
  }

  private warn(operation: string, taskIds: string, error: Error): undefined {
    this.logger.warn({ taskIds, operation, err: error.message }, 'task cache unavailable');
    return undefined;
  }
}
