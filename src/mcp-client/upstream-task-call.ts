import {
  RELATED_TASK_META_KEY,
  specTypeSchemas,
  type CallToolResult,
  type Client,
  type RequestOptions,
  type Tool,
} from '@modelcontextprotocol/client';
import type { UpstreamTaskRecord } from './mcp-tool-source.interface';

/**
 * Whether a tool is called as an MCP task (2025-11-25): its server runs tool calls as tasks and the
 * tool declares it may (or must) be one. A task outlives any one stream of the call, and a tool
 * that requires one cannot be called otherwise.
 */
export function runsAsTask(client: Client, tool: Tool | undefined): boolean {
  const support = tool?.execution?.taskSupport;
  return (
    client.getProtocolEra() === 'legacy' &&
    (support === 'required' || support === 'optional') &&
    client.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined
  );
}

/**
 * A tool call made as a task: created (the server's task id told to `record.onCreated`), then its
 * result awaited, or only awaited when `record.follow` names the task an earlier run made.
 */
export async function callAsTask(
  client: Client,
  params: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> },
  options: RequestOptions,
  record: UpstreamTaskRecord = {},
): Promise<CallToolResult> {
  if (record.follow) return taskResult(client, record.follow, options);
  const { task } = await client.request(
    { method: 'tools/call', params: { ...params, task: {} } },
    specTypeSchemas.CreateTaskResult,
    options,
  );
  try {
    await record.onCreated?.(task.taskId);
  } catch (error) {
    cancelTask(client, task.taskId);
    throw error;
  }
  return taskResult(client, task.taskId, options);
}

/**
 * The result of task `taskId` once it ends (`tasks/result`; requests the server makes meanwhile
 * reach the client's handlers as for any call), without the server's note of its own task, which
 * names nothing Switchboard's callers know. Abandoned (aborted, timed out), the task is cancelled.
 */
async function taskResult(client: Client, taskId: string, options: RequestOptions): Promise<CallToolResult> {
  try {
    const { _meta, ...result } = await client.request(
      { method: 'tasks/result', params: { taskId } },
      specTypeSchemas.CallToolResult,
      options,
    );
    const { [RELATED_TASK_META_KEY]: _upstreamTask, ...meta } = _meta ?? {};
    return Object.keys(meta).length > 0 ? { ...result, _meta: meta } : result;
  } catch (error) {
    cancelTask(client, taskId);
    throw error;
  }
}

/** Best effort: the server may have ended the task, or be gone. */
function cancelTask(client: Client, taskId: string): void {
  void client
    .request({ method: 'tasks/cancel', params: { taskId } }, specTypeSchemas.CancelTaskResult)
    .catch(() => undefined);
}
