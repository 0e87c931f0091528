import { ListTasksRequest, Task } from '@a2a-js/sdk';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { isTerminal } from '../../common/task-states';
import type { SwitchboardConfig } from '../../config/config.schema';
import { AgentHandlers } from '../../a2a-server/agent-handlers.service';
import { toolCallRequest, toolOfTask } from '../../agents/tool-call-task';
import { TaskView } from '../../tasks';
import { storedView, type McpCaller } from '../mcp-caller';
import { SubagentBridge } from '../bridge/subagent-bridge';
import { agentOfTask, BRIDGE_STARTED_AT_METADATA_KEY, changesTask } from '../bridge/task-resource';
import { MCP_SESSION_STORE, McpSessionStore } from '../stores/mcp-session-store.interface';
import { LocalSubscriptionChanges, taskStatusSubscription } from '../sessions/session-subscriptions';
import { mcpTaskStatus, type McpTaskTerms } from './mcp-task-status';

const LIST_PAGE_SIZE = 50;

/**
 * MCP Tasks on Switchboard's durable tasks: an agent started as an MCP task is the caller's A2A
 * task (one id, readable over A2A and as `a2a://task/{id}`), started and continued through the
 * bridge, read from the shared store and followed on its shared event stream, so any replica
 * answers for it. A task the caller cannot see (another's, one of an agent out of its reach, an
 * absent one) is the same "unknown task" to it.
 */
@Injectable()
export class McpTasks {
  private readonly ttlMs: number;
  private readonly pollIntervalMs: number;

  constructor(
    private readonly bridge: SubagentBridge,
    private readonly handlers: AgentHandlers,
    private readonly tasks: TaskView,
    @Inject(MCP_SESSION_STORE) private readonly sessions: McpSessionStore,
    private readonly subscriptionChanges: LocalSubscriptionChanges,
    config: ConfigService<SwitchboardConfig, true>,
  ) {
    this.ttlMs = config.get('tasks', { infer: true }).ttl_secs * 1000;
    this.pollIntervalMs = config.get('mcp_server', { infer: true }).task_poll_interval_ms;
  }

  /**
   * The terms every task is kept on, whatever `ttl` its caller asked for (the server decides, and
   * says so): an ended task and its result stay readable for `tasks.ttl_secs`, then retention
   * evicts it; a caller that never comes back costs the row until then.
   */
  terms(): McpTaskTerms {
    return { ttlMs: this.ttlMs, pollIntervalMs: this.pollIntervalMs };
  }

  start(agent: string, text: string, caller: McpCaller): Promise<Task> {
    return this.bridge.startTask(agent, text, caller);
  }

  /**
   * Starts a call of a connected MCP server's tool as the caller's durable task (ToolCallExecutor):
   * run on a worker, its result read through `tasks/result`, as the server gave it.
   */
  async startToolCall(tool: string, args: Record<string, unknown>, caller: McpCaller): Promise<Task> {
    const request = toolCallRequest(tool, args, { [BRIDGE_STARTED_AT_METADATA_KEY]: new Date().toISOString() });
    const result = await this.handlers.toolCalls.handler.sendMessage(request, caller.context);
    if (!('status' in result)) throw new Error(`the call of ${tool} started no task`);
    return result;
  }

  async get(taskId: string, caller: McpCaller): Promise<Task> {
    const task = await this.tasks.get(taskId, storedView(caller)).catch(() => undefined);
    if (!task || !this.visible(task, caller))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task: ${taskId}`);
    return task;
  }

  /** A page of the caller's tasks, newest first; `cursor` is the page token the previous page gave. */
  async list(cursor: string | undefined, caller: McpCaller): Promise<{ tasks: Task[]; nextCursor?: string }> {
    const page = await this.tasks
      .list(
        ListTasksRequest.fromJSON({ pageSize: LIST_PAGE_SIZE, ...(cursor && { pageToken: cursor }) }),
        caller.context,
      )
      .catch((error: Error) => {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor: ${error.message}`);
      });
    return {
      tasks: page.tasks.filter((task) => this.visible(task, caller)),
      ...(page.nextPageToken && { nextCursor: page.nextPageToken }),
    };
  }

  async cancel(taskId: string, caller: McpCaller): Promise<Task> {
    const task = await this.get(taskId, caller);
    if (isTerminal(task))
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Task ${taskId} has ended already; it cannot be cancelled`,
      );
    await this.bridge.cancelTask(taskId, caller);
    return this.get(taskId, caller);
  }

  /** The caller's answer to a task waiting for input: the next message of its A2A conversation. */
  async answer(taskId: string, text: string, caller: McpCaller): Promise<void> {
    await this.get(taskId, caller);
    await this.bridge.continueTask(taskId, text, caller);
  }

  /**
   * The task once it has ended, followed on its shared event stream (any replica's). While it
   * waits for input, `onInputRequired` is asked (once per wait) to get it answered.
   */
  async ended(
    taskId: string,
    caller: McpCaller,
    signal: AbortSignal,
    onInputRequired?: (task: Task) => Promise<void>,
  ): Promise<Task> {
    let asked: string | undefined;
    for (;;) {
      const position = await this.tasks.events.tail(taskId);
      const task = await this.get(taskId, caller);
      if (isTerminal(task)) return task;
      const waiting = task.status?.timestamp;
      if (onInputRequired && mcpTaskStatus(task) === 'input_required' && asked !== waiting) {
        asked = waiting;
        await onInputRequired(task);
        continue;
      }
      await this.nextChange(taskId, position, signal);
    }
  }

  /**
   * Has the caller's 2025-era session told of every status change of a task it started, by
   * whichever replica holds the session's GET stream (recorded in the shared session store).
   */
  async announceTo(sessionId: string, taskId: string): Promise<void> {
    await this.sessions.subscribe(sessionId, taskStatusSubscription(taskId), this.tasks.events.start);
    await this.subscriptionChanges.changed(sessionId);
  }

  private async nextChange(taskId: string, afterId: string, signal: AbortSignal): Promise<void> {
    for await (const { event } of this.tasks.events.read(taskId, { afterId, signal })) if (changesTask(event)) return;
    signal.throwIfAborted();
  }

  private visible(task: Task, caller: McpCaller): boolean {
    const tool = toolOfTask(task);
    if (tool !== undefined) return caller.scope.allowsTool(tool);
    const agent = agentOfTask(task);
    return agent === undefined || caller.scope.allowsAgent(agent);
  }
}
