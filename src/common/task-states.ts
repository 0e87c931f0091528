import { type Task, TaskState, taskStateToJSON } from '@a2a-js/sdk';

/** States a task never leaves; only tasks in these states are ever evicted. Same list as the SDK's. */
export const TERMINAL_TASK_STATES: readonly TaskState[] = [
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
];

/** States in which a task waits for its caller (input, authorization): a turn ends there, and the next message continues the task. */
export const INTERRUPTED_TASK_STATES: readonly TaskState[] = [
  TaskState.TASK_STATE_INPUT_REQUIRED,
  TaskState.TASK_STATE_AUTH_REQUIRED,
];

/** Wire names of the terminal states, as stored in the tasks.state column. */
export const TERMINAL_STATE_NAMES: readonly string[] = TERMINAL_TASK_STATES.map(taskStateToJSON);

export function isTerminal(task: Task): boolean {
  return task.status !== undefined && TERMINAL_TASK_STATES.includes(task.status.state);
}

/** The wire name of the task's state (`TASK_STATE_WORKING`); what counts and the database key on. */
export function stateName(task: Task): string {
  return taskStateToJSON(task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED);
}

/**
 * A state as people read it and v0.3 spells it (`completed`, `input-required`): what error messages
 * and the bridge say. Metric labels and progress text join words with `_` (`input_required`).
 */
export function stateLabel(state: TaskState | undefined, separator: '-' | '_' = '-'): string {
  return taskStateToJSON(state ?? TaskState.TASK_STATE_UNSPECIFIED)
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replaceAll('_', separator);
}
