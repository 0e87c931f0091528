import { Message, Role, roleToJSON, Task, TaskState, taskStateToJSON } from '@a2a-js/sdk';
import { ServerCallContext, type User } from '@a2a-js/sdk/server';

/** A call context as a transport would build it for `owner`, authenticated, under `tenant`. */
export function callContext(owner = 'alice', tenant = 'acme', requestedVersion?: string): ServerCallContext {
  const user: User = { isAuthenticated: true, userName: owner };
  return new ServerCallContext({ user, tenant, requestedVersion });
}

export function message(text: string, role = Role.ROLE_USER): Message {
  return Message.fromJSON({ messageId: `m-${text}`, role: roleToJSON(role), parts: [{ text }] });
}

export interface TaskSpec {
  state?: TaskState;
  /** ISO timestamp, or null for a status without one. */
  timestamp?: string | null;
  contextId?: string;
  history?: string[];
  artifacts?: string[];
}

export function makeTask(id: string, spec: TaskSpec = {}): Task {
  const { state = TaskState.TASK_STATE_WORKING, contextId = 'ctx-1', history = [], artifacts = [] } = spec;
  const timestamp = spec.timestamp === null ? undefined : (spec.timestamp ?? new Date().toISOString());
  return Task.fromJSON({
    id,
    contextId,
    status: {
      state: taskStateToJSON(state),
      timestamp,
      message: { messageId: `s-${id}`, role: 'ROLE_AGENT', parts: [{ text: 'status' }] },
    },
    history: history.map((text) => ({ messageId: `m-${id}-${text}`, role: 'ROLE_USER', parts: [{ text }] })),
    artifacts: artifacts.map((name) => ({
      artifactId: `a-${id}-${name}`,
      name,
      parts: [{ data: { name, values: [1, 2] } }],
    })),
    metadata: { source: 'test', nested: { n: 1 } },
  });
}

/** Distinct, increasing ISO timestamps: `at(0)`, `at(1)`... one second apart. */
export function at(second: number): string {
  return new Date(Date.UTC(2025, 0, 1, 0, 0, second)).toISOString();
}

/**
 * Stores keep the time of a write to the millisecond (Date.now(), timestamptz(3)): resolves once the
 * clock has moved on by at least a whole millisecond, so that the next write is ordered after the last.
 */
export async function nextMillisecond(): Promise<void> {
  const last = Date.now();
  while (Date.now() < last + 2) await new Promise((resolve) => setImmediate(resolve));
}
