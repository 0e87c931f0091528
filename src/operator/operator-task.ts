import { Task } from '@a2a-js/sdk';
import { remoteTaskLinkOf } from '../agents/executors/a2a/remote-task-link';
import { stateName } from '../common/task-states';
import type { TaskActivityEntry, TaskRecord } from '../tasks';
import { messageText } from '../common/parts';
import type { TaskTimelineEntry } from './task-timeline';

/** Where tracing, when on, notes a task's trace (src/tracing). */
export const TRACE_ID_METADATA_KEY = 'switchboard/trace_id';

/** A row of the operator's task list. */
export interface OperatorTaskRow {
  id: string;
  contextId: string;
  state: string;
  agent: string | null;
  owner: string;
  createdAt: string;
  updatedAt: string;
  /** The status message's text; empty when it has none. */
  statusText: string;
}

/** A task as the operator's task page shows it. */
export interface OperatorTaskDetail {
  /** The A2A v1.0 Task JSON. */
  task: unknown;
  agent: string | null;
  owner: string;
  createdAt: string;
  updatedAt: string;
  activity: TaskActivityEntry[];
  /** What the task went through, in order: statuses, messages, artifacts and activity (task-timeline.ts). */
  timeline: TaskTimelineEntry[];
  remoteTask?: { agent: string; taskId: string };
  traceId?: string;
}

export function taskRow({ task, scope, agent, createdAt, updatedAt }: TaskRecord): OperatorTaskRow {
  return {
    id: task.id,
    contextId: task.contextId,
    state: stateName(task),
    agent: agent ?? null,
    owner: scope.owner,
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
    statusText: messageText(task.status?.message),
  };
}

export function taskDetail(
  { task, scope, agent, createdAt, updatedAt }: TaskRecord,
  activity: TaskActivityEntry[],
  timeline: TaskTimelineEntry[],
): OperatorTaskDetail {
  const remote = remoteTaskLinkOf(task);
  const traceId = task.metadata?.[TRACE_ID_METADATA_KEY];
  return {
    task: Task.toJSON(task),
    agent: agent ?? null,
    owner: scope.owner,
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
    activity,
    timeline,
    ...(remote && { remoteTask: { agent: remote.agent, taskId: remote.task_id } }),
    ...(typeof traceId === 'string' && { traceId }),
  };
}
