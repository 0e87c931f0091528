import { type Message, type StreamResponse, Task } from '@a2a-js/sdk';
import { remoteTaskLinkOf } from '../../agents/executors/a2a/remote-task-link';
import { messageText } from '../../common/parts';
import { stateLabel } from '../../common/task-states';

/** The ARDF bridge's resource of one task; the only form its URI is ever given or accepted in. */
export const TASK_URI_TEMPLATE = 'a2a://task/{taskId}';
/** The ARDF bridge's resource of one agent (hosted or external). */
export const AGENT_URI_TEMPLATE = 'a2a-agent://{name}';
/** Where a message sent through the bridge records the agent its task belongs to (tasks keep their history). */
export const BRIDGE_AGENT_METADATA_KEY = 'switchboard/agent';
/** Where the message that started a task through the bridge records when (A2A tasks have no creation time of their own). */
export const BRIDGE_STARTED_AT_METADATA_KEY = 'switchboard/startedAt';

/** Task ids as the A2A server makes them (UUIDs), with room for other tidy ids; never a query, fragment or path. */
const TASK_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/;
const TASK_URI = /^a2a:\/\/task\/([^/?#]+)$/;
const AGENT_URI = /^a2a-agent:\/\/([A-Za-z0-9][A-Za-z0-9_-]*)\/?$/;

export function taskUri(taskId: string): string {
  return `a2a://task/${taskId}`;
}

export function agentUri(name: string): string {
  return `a2a-agent://${name}`;
}

/** The task id of a canonical task URI; undefined for anything else (a query, a path, an id no task can have). */
export function taskIdOf(uri: string): string | undefined {
  const id = TASK_URI.exec(uri)?.[1];
  return validTaskId(id) ? id : undefined;
}

export function validTaskId(id: unknown): id is string {
  return typeof id === 'string' && TASK_ID.test(id);
}

export function agentNameOf(uri: string): string | undefined {
  return AGENT_URI.exec(uri)?.[1];
}

/** The agent a task was started with through the bridge, else the external agent it is linked to. */
export function agentOfTask(task: Task): string | undefined {
  for (const message of task.history) {
    const agent = message.metadata?.[BRIDGE_AGENT_METADATA_KEY];
    if (typeof agent === 'string') return agent;
  }
  return remoteTaskLinkOf(task)?.agent;
}

/** What `resources/read` of `a2a://task/{id}` answers: the task's state, its status text, and the conversation and artifacts as A2A JSON. */
export function taskResourceJson(task: Task): Record<string, unknown> {
  const json = Task.toJSON(task) as { history?: unknown[]; artifacts?: unknown[] };
  const agent = agentOfTask(task);
  return {
    taskId: task.id,
    contextId: task.contextId,
    ...(agent && { agent }),
    state: stateLabel(task.status?.state),
    message: messageText(task.status?.message as Message | undefined),
    ...(task.status?.timestamp && { updatedAt: task.status.timestamp }),
    history: json.history ?? [],
    artifacts: json.artifacts ?? [],
  };
}

/** Whether an event on a task's stream changes what its resource reads: its state or its artifacts. */
export function changesTask(event: StreamResponse): boolean {
  const kind = event.payload?.$case;
  return kind === 'task' || kind === 'statusUpdate' || kind === 'artifactUpdate';
}
