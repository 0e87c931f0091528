import { type ListTasksRequest, type ListTasksResponse, Task, TaskState, taskStateToJSON } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { operatorPage, type OperatorTaskPage, type OperatorTaskQuery, type TaskRecord } from './operator-query';
import { readableBy, taskAgentOf } from './task-agent';
import { TaskScopeConflictError } from './task-store.errors';
import type { EvictionListener, IdleTaskQuery, RetentionPolicy, ScopedTask } from './task-store.interface';
import {
  compareListPositions,
  type ListFilter,
  listFilter,
  type ListPosition,
  listResponse,
  pageSizeOf,
  statusTime,
} from './task-list';
import { sameScope, taskScope, type TaskScope } from './task-scope';
import { TERMINAL_TASK_STATES } from '../common/task-states';
import { VersionedTaskStoreBase } from './versioned-task-store.base';
import type { VersionedTask, VersionedTaskStore, VersionedTaskWrite } from './versioned-task-store.interface';

interface Entry {
  scope: TaskScope;
  /**
   * Task.toJSON of the task: every read decodes a fresh copy, exactly as from the database. It is
   * the only copy kept: what lists and retention filter on is beside it, as the database's columns.
   */
  data: unknown;
  contextId: string;
  state: TaskState;
  version: number;
  position: ListPosition;
  /** The agent the task was first stored with. */
  agent?: string;
  createdAt: number;
  updatedAt: number;
}

/** TaskStore for embedded mode: one process, no database. Writes are atomic because they never await. */
export class MemoryTaskStore extends VersionedTaskStoreBase implements VersionedTaskStore {
  readonly inProcess = true;
  private readonly entries = new Map<string, Entry>();

  async loadVersioned(taskId: string, context: ServerCallContext): Promise<VersionedTask | undefined> {
    const entry = this.visible(taskId, context);
    return entry && versioned(entry);
  }

  async saveVersioned(task: Task, context: ServerCallContext): Promise<VersionedTask> {
    const scope = taskScope(context);
    const existing = this.entries.get(task.id);
    if (existing && !sameScope(existing.scope, scope)) throw new TaskScopeConflictError(task.id);
    return this.write(task, context, existing);
  }

  async saveUnlessEndedVersioned(task: Task, context: ServerCallContext): Promise<VersionedTaskWrite> {
    return this.saveUnless(task, context, isEnded);
  }

  async saveUnlessTurnRecordedVersioned(
    task: Task,
    messageId: string,
    context: ServerCallContext,
  ): Promise<VersionedTaskWrite> {
    return this.saveUnless(
      task,
      context,
      (entry) => isEnded(entry) || Task.fromJSON(entry.data).history.some((message) => message.messageId === messageId),
    );
  }

  async list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    const scope = taskScope(context);
    const filter = listFilter(params);
    const matching = [...this.entries.values()]
      .filter((entry) => sameScope(entry.scope, scope) && readableBy(entry.agent, context) && matches(entry, filter))
      .sort((a, b) => compareListPositions(a.position, b.position));
    const following = filter.after
      ? matching.filter((entry) => compareListPositions(entry.position, filter.after!) > 0)
      : matching;
    const page = following.slice(0, pageSizeOf(params) + 1);
    return listResponse(
      page.map((entry) => Task.fromJSON(entry.data)),
      matching.length,
      params,
    );
  }

  async countByState(): Promise<Record<string, number>> {
    return countStates(this.entries.values());
  }

  async countByStateSince(since: Date): Promise<Record<string, number>> {
    return countStates([...this.entries.values()].filter((entry) => entry.updatedAt >= since.getTime()));
  }

  async listAcrossScopes(query: OperatorTaskQuery): Promise<OperatorTaskPage> {
    const following = [...this.entries.values()]
      .filter((entry) => matchesOperatorQuery(entry, query))
      .sort((a, b) => compareListPositions(a.position, b.position));
    return operatorPage(following.slice(0, query.pageSize + 1).map(recordOf), query.pageSize);
  }

  async findAnywhere(taskId: string): Promise<TaskRecord | undefined> {
    const entry = this.entries.get(taskId);
    return entry && recordOf(entry);
  }

  async findIdle({ states, idleMs, limit, now }: IdleTaskQuery): Promise<ScopedTask[]> {
    const cutoff = (now?.getTime() ?? Date.now()) - idleMs;
    return [...this.entries.values()]
      .filter((entry) => entry.updatedAt < cutoff && states.includes(entry.state))
      .sort((a, b) => a.updatedAt - b.updatedAt)
      .slice(0, limit)
      .map((entry) => ({ task: Task.fromJSON(entry.data), scope: entry.scope }));
  }

  async applyRetention(policy: RetentionPolicy, onEvicted?: EvictionListener): Promise<number> {
    const cutoff = (policy.now?.getTime() ?? Date.now()) - policy.ttlMs;
    const terminal = [...this.entries.entries()]
      .filter(([, entry]) => isEnded(entry))
      .sort(([idA, a], [idB, b]) => a.updatedAt - b.updatedAt || (idA < idB ? -1 : 1));
    const expired = terminal.filter(([, entry]) => entry.updatedAt < cutoff);
    const excess = Math.max(this.entries.size - expired.length - policy.maxTasks, 0);
    const evicted = [...expired, ...terminal.slice(expired.length, expired.length + excess)].map(([id]) => id);
    for (const id of evicted) this.entries.delete(id);
    if (evicted.length > 0) await onEvicted?.(evicted);
    return evicted.length;
  }

  /** Writes the task unless the stored one meets `keep`; tells whether it wrote. */
  private saveUnless(task: Task, context: ServerCallContext, keep: (stored: Entry) => boolean): VersionedTaskWrite {
    const scope = taskScope(context);
    const existing = this.entries.get(task.id);
    if (existing && !sameScope(existing.scope, scope)) throw new TaskScopeConflictError(task.id);
    if (existing && keep(existing)) return { ...versioned(existing), written: false };
    return { ...this.write(task, context, existing), written: true };
  }

  private visible(taskId: string, context: ServerCallContext): Entry | undefined {
    const entry = this.entries.get(taskId);
    return entry && sameScope(entry.scope, taskScope(context)) ? entry : undefined;
  }

  private write(task: Task, context: ServerCallContext, existing: Entry | undefined): VersionedTask {
    const data = Task.toJSON(task);
    const version = (existing?.version ?? 0) + 1;
    const now = Date.now();
    const entry: Entry = {
      scope: taskScope(context),
      agent: existing ? existing.agent : taskAgentOf(context),
      createdAt: existing?.createdAt ?? now,
      data,
      contextId: task.contextId,
      state: task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED,
      version,
      position: { time: statusTime(task), id: task.id },
      updatedAt: now,
    };
    this.entries.set(task.id, entry);
    return versioned(entry);
  }
}

function versioned(entry: Entry): VersionedTask {
  return {
    task: Task.fromJSON(entry.data),
    version: entry.version,
    ...(entry.agent !== undefined && { agent: entry.agent }),
  };
}

function isEnded(entry: Entry): boolean {
  return TERMINAL_TASK_STATES.includes(entry.state);
}

function countStates(entries: Iterable<Entry>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const entry of entries) {
    const state = taskStateToJSON(entry.state);
    counts[state] = (counts[state] ?? 0) + 1;
  }
  return counts;
}

function recordOf(entry: Entry): TaskRecord {
  return {
    task: Task.fromJSON(entry.data),
    scope: entry.scope,
    agent: entry.agent,
    createdAt: new Date(entry.createdAt),
    updatedAt: new Date(entry.updatedAt),
  };
}

function matchesOperatorQuery(entry: Entry, query: OperatorTaskQuery): boolean {
  if (query.state !== undefined && taskStateToJSON(entry.state) !== query.state) return false;
  if (query.agent !== undefined && entry.agent !== query.agent) return false;
  if (query.owner !== undefined && entry.scope.owner !== query.owner) return false;
  if (query.createdAfter && entry.createdAt <= query.createdAfter.getTime()) return false;
  if (query.createdBefore && entry.createdAt >= query.createdBefore.getTime()) return false;
  return !query.after || compareListPositions(entry.position, query.after) > 0;
}

function matches(entry: Entry, filter: ListFilter): boolean {
  const { contextId, state, position } = entry;
  if (filter.contextId !== undefined && contextId !== filter.contextId) return false;
  if (filter.state !== undefined && state !== filter.state) return false;
  if (filter.statusAfter !== undefined && position.time.getTime() <= filter.statusAfter.getTime()) return false;
  return true;
}
