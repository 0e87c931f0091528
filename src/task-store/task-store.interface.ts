import type { StreamResponse, Task } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore as A2aTaskStore } from '@a2a-js/sdk/server';

export const TASK_STORE = Symbol('TASK_STORE');

/** One entry of a task's append-only event log, numbered from 1 in the order it was appended. */
export interface TaskEventRecord {
  seq: number;
  event: StreamResponse;
  createdAt: Date;
}

export interface RetentionPolicy {
  /** Keep at most this many tasks; only terminal tasks are evicted to get there, oldest first. */
  maxTasks: number;
  /** Terminal tasks whose last update is older than this are evicted. */
  ttlMs: number;
  now?: Date;
}

/**
 * The durable home of A2A tasks. It is the SDK's `TaskStore` (load/save/list, scoped by tenant and
 * caller) plus what a multi-replica server needs: atomic updates, a replayable event log, counts
 * for metrics and retention.
 *
 * Task ids are unique across scopes; `save` of an id owned by another scope throws
 * TaskScopeConflictError. `list` also applies `historyLength` and `includeArtifacts`.
 */
export interface TaskStore extends A2aTaskStore {
  /**
   * Read-modify-write of one task as a single atomic step: concurrent updates of the same task are
   * serialized, so none is lost. Throws TaskNotFoundError when the task is not visible to the caller.
   */
  update(taskId: string, context: ServerCallContext, mutate: (task: Task) => Task | void): Promise<Task>;
  /**
   * Writes the task (creating it if absent) unless the stored one has reached a terminal state, in
   * one atomic step; returns what the store holds afterwards. How a turn records its progress
   * without ever overwriting a cancel. TaskScopeConflictError when the id belongs to another scope.
   */
  saveUnlessEnded(task: Task, context: ServerCallContext): Promise<Task>;
  /** Appends an event to the task's log and returns its sequence number; TaskNotFoundError if not visible. */
  appendEvent(taskId: string, context: ServerCallContext, event: StreamResponse): Promise<number>;
  /** Events with a sequence number greater than `afterSeq`, oldest first; none when the task is not visible. */
  readEvents(taskId: string, context: ServerCallContext, afterSeq?: number, limit?: number): Promise<TaskEventRecord[]>;
  /** Number of tasks in each state across all tenants, keyed by the wire name (`TASK_STATE_WORKING`). */
  countByState(): Promise<Record<string, number>>;
  /**
   * Evicts terminal tasks by TTL, then by count, with their events and push configs; returns how
   * many were evicted. Never touches active tasks.
   */
  applyRetention(policy: RetentionPolicy): Promise<number>;
}
