import type { StreamResponse, Task } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { stateName } from '../../common/task-states';
import { taskAgentOf } from '../../task-store/task-agent';
import { taskScope } from '../../task-store/task-scope';
import type { LiveChannel } from './live-channel';

export const TASK_CHANGES = Symbol('TASK_CHANGES');
/** The Redis channel's name under the key prefix. */
export const TASK_CHANGES_CHANNEL = 'task-changes';

/** A task's state was written: what the operator's live task list needs to update its row. */
export interface TaskChange {
  taskId: string;
  /** Wire name, `TASK_STATE_WORKING`. */
  state: string;
  /** Null for a write whose call did not name the agent (an operator's cancel of a task stored before agents were recorded). */
  agent: string | null;
  owner: string;
  updatedAt: string;
}

/** Every task change on every process: published with the task's events (TaskEventStream.publish), heard by live views. */
export type TaskChanges = LiveChannel<TaskChange>;

/** The change `task`'s latest state makes, written in the call of `context`. */
export function taskChangeOf(task: Task, context: ServerCallContext): TaskChange {
  return {
    taskId: task.id,
    state: stateName(task),
    agent: taskAgentOf(context) ?? null,
    owner: taskScope(context).owner,
    updatedAt: new Date().toISOString(),
  };
}

/** Whether publishing `events` tells of a new state of their task (a whole task, or a status update). */
export function changesState(events: readonly StreamResponse[]): boolean {
  return events.some((event) => event.payload?.$case === 'task' || event.payload?.$case === 'statusUpdate');
}
