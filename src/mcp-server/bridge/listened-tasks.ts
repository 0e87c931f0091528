import type { McpCatalogSource } from '../../mcp-client/mcp-catalog-source.interface';
import { isTerminal } from '../../common/task-states';
import { isRequestMessage } from '../json-rpc-shapes';
import type { McpCaller } from '../mcp-caller';
import type { SubagentBridge } from './subagent-bridge';
import { taskIdOf, taskUri } from './task-resource';
import type { TaskUpdates } from './task-updates';

/** A 2026-07-28 `subscriptions/listen`, as far as the bridge reads it. */
export interface ListenRequest {
  jsonrpc: '2.0';
  id: string | number;
  method: 'subscriptions/listen';
  params?: { notifications?: { resourceSubscriptions?: unknown } & Record<string, unknown> } & Record<string, unknown>;
}

export function isListen(message: unknown): message is ListenRequest {
  return isRequestMessage(message) && message.method === 'subscriptions/listen';
}

/**
 * Of the resources a listen names, the caller's own tasks in canonical form (the SDK would accept
 * any URI, so anyone could hear of anyone's task), and connected servers' resources that can be
 * subscribed to. Those that can still change are followed on this replica while `signal` is live,
 * each change reported as `notify(uri)`; the SDK's listen router then passes it only to the
 * listens that named it.
 */
export async function followListenedTasks(
  listen: ListenRequest,
  caller: McpCaller,
  bridge: SubagentBridge,
  updates: TaskUpdates,
  catalog: McpCatalogSource,
  notify: (uri: string) => void,
  signal: AbortSignal,
): Promise<string[]> {
  const requested = listen.params?.notifications?.resourceSubscriptions;
  if (!Array.isArray(requested)) return [];
  const accepted: string[] = [];
  for (const uri of new Set(requested)) {
    if (typeof uri === 'string' && catalog.subscribable(uri)) {
      // Subscribed upstream before the listen is acknowledged, so no change after it is missed.
      const followed = await catalog
        .followResource(uri, () => notify(uri), signal)
        .then(
          () => true,
          () => false,
        );
      if (followed) accepted.push(uri);
      continue;
    }
    const taskId = typeof uri === 'string' ? taskIdOf(uri) : undefined;
    const task = taskId === undefined ? undefined : await bridge.ownTask(taskId, caller);
    if (!task) continue;
    const canonical = taskUri(task.id);
    accepted.push(canonical);
    if (isTerminal(task) || signal.aborted) continue;
    const stop = updates.shared(task.id, () => notify(canonical));
    signal.addEventListener('abort', stop, { once: true });
  }
  return accepted;
}

/** The listen with only the resources the bridge accepted. */
export function withResourceSubscriptions(listen: ListenRequest, accepted: string[]): ListenRequest {
  if (!Array.isArray(listen.params?.notifications?.resourceSubscriptions)) return listen;
  return {
    ...listen,
    params: { ...listen.params, notifications: { ...listen.params!.notifications, resourceSubscriptions: accepted } },
  };
}
