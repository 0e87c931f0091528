import type { Task, TaskState } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore as A2aTaskStore } from '@a2a-js/sdk/server';
import type { OperatorTaskPage, OperatorTaskQuery, TaskRecord } from './operator-query';
import type { TaskScope } from './task-scope';

export const TASK_STORE = Symbol('TASK_STORE');

export interface RetentionPolicy {
  /** Keep at most this many tasks; only terminal tasks are evicted to get there, oldest first. */
  maxTasks: number;
  /** Terminal tasks whose last update is older than this are evicted. */
  ttlMs: number;
  now?: Date;
}

export interface IdleTaskQuery {
  states: readonly TaskState[];
  /** Only tasks not written for at least this long. */
  idleMs: number;
  limit: number;
  now?: Date;
}

/** A task with the scope it is stored under, for maintenance that acts across scopes. */
export interface ScopedTask {
  task: Task;
  scope: TaskScope;
}

/** What the store holds after a conditional write, and whether that write happened. */
export interface TaskWrite {
  task: Task;
  written: boolean;
}

/** Called with the ids of each batch of evicted tasks, after the batch is durably gone. */
export type EvictionListener = (taskIds: string[]) => Promise<void>;

/**
 * The durable home of A2A tasks. It is the SDK's `TaskStore` (load/save/list, scoped by tenant and
 * caller) plus what a multi-replica server needs: a write that never overwrites an ended task,
 * counts for metrics, and retention.
 *
 * Task ids are unique across scopes; `save` of an id owned by another scope throws
 * TaskScopeConflictError. `list` also applies `historyLength` and `includeArtifacts`.
 */
export interface TaskStore extends A2aTaskStore {
  /** Whether reads are served in this process (the in-memory store), with no round trip to a server. */
  readonly inProcess: boolean;
  /**
   * Writes the task (creating it if absent) unless the stored one has reached a terminal state, in
   * one atomic step; returns what the store holds afterwards, and whether it wrote. How a turn
   * records its progress without ever overwriting a cancel. TaskScopeConflictError when the id
   * belongs to another scope.
   */
  saveUnlessEnded(task: Task, context: ServerCallContext): Promise<TaskWrite>;
  /**
   * saveUnlessEnded, also leaving the stored task as it is when its history already holds message
   * `messageId`: that message's turn is recorded already (by its worker), and writing the task as
   * submitted would move it backwards. How a turn is submitted: once, and never after it started.
   */
  saveUnlessTurnRecorded(task: Task, messageId: string, context: ServerCallContext): Promise<TaskWrite>;
  /** Number of tasks in each state across all tenants, keyed by the wire name (`TASK_STATE_WORKING`). */
  countByState(): Promise<Record<string, number>>;
  /** Number of tasks last written at or after `since`, by the state they were left in (wire names). */
  countByStateSince(since: Date): Promise<Record<string, number>>;
  /** Tasks of every scope for operators, filtered and paged (operator-query.ts). */
  listAcrossScopes(query: OperatorTaskQuery): Promise<OperatorTaskPage>;
  /** A task by id whatever its scope, for operators; undefined when there is none. */
  findAnywhere(taskId: string): Promise<TaskRecord | undefined>;
  /** Tasks of every scope in one of `states` that were not written for `idleMs`, least recently written first. */
  findIdle(query: IdleTaskQuery): Promise<ScopedTask[]>;
  /**
   * Evicts terminal tasks by TTL, then by count, with their push configs; returns how many were
   * evicted. Never touches active tasks. `onEvicted` removes what else is kept per task.
   */
  applyRetention(policy: RetentionPolicy, onEvicted?: EvictionListener): Promise<number>;
}
