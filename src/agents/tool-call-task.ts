/**
 * A tool call's task as the MCP face starts and reads it and its executor runs it: the message that
 * names the tool and its arguments, the artifact that keeps the result.
 */
import { type Message, SendMessageRequest, type Task } from '@a2a-js/sdk';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { randomUUID } from 'node:crypto';
import { partData } from '../common/parts';

/** Where the message of a tool call's task names the tool (the task's own record of it, for scoping and reading). */
export const TOOL_CALL_METADATA_KEY = 'switchboard/tool';
/** The artifact a tool call's task keeps the tool's result in. */
export const TOOL_CALL_RESULT_ARTIFACT = 'result';

/**
 * A send that starts a tool call's task, answered at once: its message names the tool (in its
 * metadata, beside `metadata`) and carries the tool and its arguments as one data part.
 */
export function toolCallRequest(
  tool: string,
  args: Record<string, unknown>,
  metadata: Record<string, unknown>,
): SendMessageRequest {
  return SendMessageRequest.fromJSON({
    message: {
      messageId: randomUUID(),
      role: 'ROLE_USER',
      parts: [{ data: { tool, arguments: args }, mediaType: 'application/json' }],
      metadata: { ...metadata, [TOOL_CALL_METADATA_KEY]: tool },
    },
    configuration: { returnImmediately: true },
  });
}

/** The tool a task runs, if it is a tool call's. */
export function toolOfTask(task: Task): string | undefined {
  const tool = task.history[0]?.metadata?.[TOOL_CALL_METADATA_KEY];
  return typeof tool === 'string' ? tool : undefined;
}

/** The tool's result, as the server gave it, once the task has it. */
export function toolCallResultOf(task: Task): CallToolResult | undefined {
  return partData(task.artifacts.find((artifact) => artifact.artifactId === TOOL_CALL_RESULT_ARTIFACT)?.parts[0]) as
    CallToolResult | undefined;
}

/** The tool and arguments a tool call's message names (toolCallRequest). */
export function toolCallOf(message: Message): { tool: string; args: Record<string, unknown> } {
  const value = partData(message.parts[0]) as { tool?: unknown; arguments?: unknown } | undefined;
  if (typeof value?.tool !== 'string') throw new Error('the message names no tool to call');
  const args =
    value.arguments && typeof value.arguments === 'object' && !Array.isArray(value.arguments)
      ? (value.arguments as Record<string, unknown>)
      : {};
  return { tool: value.tool, args };
}
