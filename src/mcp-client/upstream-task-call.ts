import { specTypeSchemas, type CallToolResult, type Client, type RequestOptions, type Tool } from '@modelcontextprotocol/client';

/**
 * Whether a tool is called as an MCP task (2025-11-25): its server runs tool calls as tasks and the
 * tool declares it may (or must) be one. A task outlives any one stream of the call, and a tool
 * that requires one cannot be called otherwise.
 */
export function runsAsTask(client: Client, tool: Tool | undefined): boolean {
  const support = tool?.execution?.taskSupport;
  return client.getProtocolEra() === 'legacy' && (support === 'required' || support === 'optional') && client.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined;
}

/**
 * A tool call made as a task: created, then its result awaited (`tasks/result` answers once the task
 * ends; requests the server makes meanwhile reach the client's handlers as for any call). A call
 * abandoned (aborted, timed out) cancels its task.
 */
export async function callAsTask(client: Client, params: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> }, options: RequestOptions): Promise<CallToolResult> {
  const { task } = await client.request({ method: 'tools/call', params: { ...params, task: {} } }, specTypeSchemas.CreateTaskResult, options);
  try {
    return await client.request({ method: 'tasks/result', params: { taskId: task.taskId } }, specTypeSchemas.CallToolResult, options);
  } catch (error) {
    void client.request({ method: 'tasks/cancel', params: { taskId: task.taskId } }, specTypeSchemas.CancelTaskResult).catch(() => undefined);
    throw error;
  }
}
