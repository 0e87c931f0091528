import type { StreamResponse } from '@a2a-js/sdk';
import type { AgentExecutionEvent } from '@a2a-js/sdk/server';

/** The agent event a task stream entry carries: what an SDK event bus or ResultManager takes. */
export function toAgentEvent({ payload }: StreamResponse): AgentExecutionEvent | undefined {
  if (!payload) return undefined;
  switch (payload.$case) {
    case 'task':
      return { kind: 'task', data: payload.value };
    case 'message':
      return { kind: 'message', data: payload.value };
    case 'statusUpdate':
      return { kind: 'statusUpdate', data: payload.value };
    case 'artifactUpdate':
      return { kind: 'artifactUpdate', data: payload.value };
  }
}
