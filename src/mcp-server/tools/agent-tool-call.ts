import {
  CancelTaskRequest,
  GetTaskRequest,
  SendMessageRequest,
  StreamResponse,
  Task,
  TaskState,
  taskStateToJSON,
} from '@a2a-js/sdk';
import { Injectable, Logger } from '@nestjs/common';
import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import { randomUUID } from 'node:crypto';
import type { AgentHandler } from '../../a2a-server/agent-handlers.service';
import { TaskStreamInterruptedError } from '../../a2a-server/task-stream-interrupted.error';
import { isTerminal, stateLabel } from '../../common/task-states';
import { storedView, type McpCaller } from '../mcp-caller';
import { taskUri } from '../bridge/task-resource';
import { messageText, partsText, taskText } from '../../common/parts';

const FAILED_STATES: readonly TaskState[] = [
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_REJECTED,
  TaskState.TASK_STATE_CANCELED,
];

/**
 * An agent called as an MCP tool: the message runs a real turn through the agent's A2A handler (so
 * the queue, the task store and cancellation behave as for an A2A client), each event becomes a
 * progress notification, and the caller's cancellation (its request aborted, see CancelledRequests)
 * cancels the task. A call that stops
 * following its task before the turn ends (the API shuts down, the event stream fails) is an error
 * that names the task, which goes on.
 */
@Injectable()
export class AgentToolCall {
  private readonly logger = new Logger(AgentToolCall.name);

  async run(endpoint: AgentHandler, message: string, caller: McpCaller, ctx: ServerContext): Promise<CallToolResult> {
    const request = SendMessageRequest.fromJSON({
      message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: message }] },
    });
    const signal = ctx.mcpReq.signal;
    const progress = progressReporter(ctx);
    let taskId: string | undefined;
    const cancel = () => {
      if (taskId) void this.cancel(endpoint, taskId, caller);
    };
    signal.addEventListener('abort', cancel, { once: true });
    try {
      for await (const event of endpoint.handler.sendMessageStream(request, caller.context)) {
        const payload = event.payload;
        if (payload?.$case === 'message') return textResult(partsText(payload.value.parts), false);
        if (payload?.$case === 'task' && !taskId) {
          taskId = payload.value.id;
          if (signal.aborted) cancel();
        }
        await progress(eventText(event));
        if (signal.aborted) break;
      }
      if (!taskId) return textResult('The agent ended the turn without an answer.', true);
      return taskResult(await endpoint.handler.getTask(GetTaskRequest.fromJSON({ id: taskId }), caller.context));
    } catch (error) {
      if (error instanceof TaskStreamInterruptedError) return this.interruptedResult(endpoint, error, caller);
      // A2A errors (bad input, unsupported output modes, an unavailable store) end the call, not the server.
      this.logger.warn(
        { agent: endpoint.agent.config.name, taskId, err: (error as Error).message },
        'MCP agent tool call failed',
      );
      return textResult((error as Error).message, true);
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  }

  /** The interruption as an error result, with the task's state as stored when it can still be read. */
  private async interruptedResult(
    endpoint: AgentHandler,
    error: TaskStreamInterruptedError,
    caller: McpCaller,
  ): Promise<CallToolResult> {
    this.logger.warn(
      { agent: endpoint.agent.config.name, taskId: error.taskId, err: error.message },
      'MCP agent tool call interrupted',
    );
    const task = await endpoint.handler
      .getTask(GetTaskRequest.fromJSON({ id: error.taskId }), storedView(caller))
      .catch(() => undefined);
    const state = taskStateToJSON(task?.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED);
    return { ...textResult(error.message, true), structuredContent: { taskId: error.taskId, state } };
  }

  private async cancel(endpoint: AgentHandler, taskId: string, caller: McpCaller): Promise<void> {
    try {
      await endpoint.handler.cancelTask(CancelTaskRequest.fromJSON({ id: taskId }), storedView(caller));
      this.logger.log({ agent: endpoint.agent.config.name, taskId }, 'MCP client canceled an agent tool call');
    } catch (error) {
      // Typically the task ended first.
      this.logger.debug(
        { agent: endpoint.agent.config.name, taskId, err: (error as Error).message },
        'could not cancel the task of an MCP call',
      );
    }
  }
}

/** Sends `notifications/progress` when the client asked for them (a progress token); a gone client is not an error. */
function progressReporter(ctx: ServerContext): (message: string) => Promise<void> {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  let progress = 0;
  return async (message) => {
    if (progressToken === undefined) return;
    progress += 1;
    await ctx.mcpReq
      .notify({
        method: 'notifications/progress',
        params: { progressToken, progress, ...(message ? { message } : {}) },
      })
      .catch(() => undefined);
  };
}

/** What a progress notification says about an event: the status text (or state), the artifact chunk. */
function eventText(event: StreamResponse): string {
  const payload = event.payload;
  switch (payload?.$case) {
    case 'task':
      // The task id lets the caller find the task over A2A (`GetTask`) later.
      return `task ${payload.value.id}: ${stateText(payload.value.status?.state, messageText(payload.value.status?.message))}`;
    case 'statusUpdate':
      return stateText(payload.value.status?.state, messageText(payload.value.status?.message));
    case 'artifactUpdate':
      return partsText(payload.value.artifact?.parts ?? []);
    default:
      return '';
  }
}

function stateText(state: TaskState | undefined, text: string): string {
  return text || stateLabel(state, '_');
}

/** An ended task as a tool's result: its answer (artifacts, status text), an error when it failed, was rejected or canceled. */
export function taskResult(task: Task): CallToolResult {
  const failed = isTerminal(task) && FAILED_STATES.includes(task.status!.state);
  const text = taskText(task) || (failed ? `The task ended ${stateText(task.status?.state, '')}.` : '');
  // The task's resource too: the result of `subagent_start` run as a task has its output schema to keep.
  return {
    ...textResult(text, failed),
    structuredContent: { taskUri: taskUri(task.id), taskId: task.id, state: taskStateToJSON(task.status!.state) },
  };
}

function textResult(text: string, isError: boolean): CallToolResult {
  return { content: [{ type: 'text', text }], ...(isError ? { isError: true } : {}) };
}
