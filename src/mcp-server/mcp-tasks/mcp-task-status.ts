import { type Message, type Task, TaskState } from '@a2a-js/sdk';
import { messageText } from '../../common/parts';
import { BRIDGE_STARTED_AT_METADATA_KEY } from '../bridge/task-resource';

/** A task's status as MCP Tasks name it (both eras). */
export type McpTaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

const STATUS_OF: Partial<Record<TaskState, McpTaskStatus>> = {
  [TaskState.TASK_STATE_SUBMITTED]: 'working',
  [TaskState.TASK_STATE_WORKING]: 'working',
  [TaskState.TASK_STATE_INPUT_REQUIRED]: 'input_required',
  [TaskState.TASK_STATE_AUTH_REQUIRED]: 'input_required',
  [TaskState.TASK_STATE_COMPLETED]: 'completed',
  [TaskState.TASK_STATE_FAILED]: 'failed',
  [TaskState.TASK_STATE_REJECTED]: 'failed',
  [TaskState.TASK_STATE_CANCELED]: 'cancelled',
};

export function mcpTaskStatus(task: Task): McpTaskStatus {
  return STATUS_OF[task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED] ?? 'working';
}

/** How long a task and its result are kept, and how often to poll it: as this server answers them. */
export interface McpTaskTerms {
  ttlMs: number;
  pollIntervalMs: number;
}

/** What both eras say of a task: its status (with the A2A status message), and when it began and last changed. */
export function mcpTaskFields(task: Task): {
  taskId: string;
  status: McpTaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
} {
  const statusMessage = messageText(task.status?.message as Message | undefined);
  const lastUpdatedAt = task.status?.timestamp ?? new Date().toISOString();
  return {
    taskId: task.id,
    status: mcpTaskStatus(task),
    ...(statusMessage && { statusMessage }),
    createdAt: startedAt(task) ?? lastUpdatedAt,
    lastUpdatedAt,
  };
}

/** The 2025-11-25 `Task` object (`tools/call` with `task`, `tasks/get`, `tasks/list`, `tasks/cancel`). */
export function taskV1(task: Task, terms: McpTaskTerms): Record<string, unknown> {
  return { ...mcpTaskFields(task), ttl: terms.ttlMs, pollInterval: terms.pollIntervalMs };
}

/** The 2026-07-28 extension's task (a `tools/call` handle, `tasks/get`), without the outcome fields. */
export function taskV2(task: Task, terms: McpTaskTerms): Record<string, unknown> {
  return { ...mcpTaskFields(task), ttlMs: terms.ttlMs, pollIntervalMs: terms.pollIntervalMs };
}

function startedAt(task: Task): string | undefined {
  const started = task.history[0]?.metadata?.[BRIDGE_STARTED_AT_METADATA_KEY];
  return typeof started === 'string' ? started : undefined;
}
