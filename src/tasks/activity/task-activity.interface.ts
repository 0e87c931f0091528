export const TASK_ACTIVITY_STORE = Symbol('TASK_ACTIVITY_STORE');

export type TaskActivityKind = 'tool_call' | 'delegation' | 'webhook_delivery';

/**
 * One thing a task did besides its events, for the operator's timeline. Never arguments, results,
 * credentials or whole URLs: what was called or reached, how it went, how long it took.
 */
export interface TaskActivityEntry {
  /** ISO 8601, when it began. */
  at: string;
  kind: TaskActivityKind;
  summary: string;
  durationMs?: number;
  outcome?: string;
  detail?: Record<string, unknown>;
}

/** A task's activity, append-only, kept as long as the task (retention removes both). */
export interface TaskActivityStore {
  append(taskId: string, entry: TaskActivityEntry): Promise<void>;
  /** The task's entries in the order they were appended. */
  list(taskId: string): Promise<TaskActivityEntry[]>;
  remove(taskIds: string[]): Promise<void>;
}
