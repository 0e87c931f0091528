import type { Task } from '@a2a-js/sdk';

/** Where a local task records the remote task its turns are forwarded to (in its metadata, so clients see it too). */
export const REMOTE_TASK_METADATA_KEY = 'switchboard/remote_task';

export interface RemoteTaskLink {
  agent: string;
  task_id: string;
  context_id: string;
}

export function remoteTaskLinkOf(task: Task | undefined): RemoteTaskLink | undefined {
  const link = task?.metadata?.[REMOTE_TASK_METADATA_KEY] as Partial<RemoteTaskLink> | undefined;
  return link && typeof link.task_id === 'string' && typeof link.agent === 'string'
    ? { agent: link.agent, task_id: link.task_id, context_id: link.context_id ?? '' }
    : undefined;
}
