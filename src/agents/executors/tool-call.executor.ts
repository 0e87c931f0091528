import { type Message, SendMessageRequest, type Task, TaskState } from '@a2a-js/sdk';
import { randomUUID } from 'node:crypto';
import type { ExecutionEventBus } from '@a2a-js/sdk/server';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { McpToolSource } from '../../mcp-client/mcp-tool-source.interface';
import { dataPart, TurnPublisher } from '../../tasks/lifecycle/turn-publisher';
import type { AgentTurn, AgentTurnExecutor } from '../agent-executor.interface';
import { CALL_TOOL_RESULT_LIMITER } from '../tools/call-tool-result-limiter';
import type { ToolPipeline } from '../tools/tool-pipeline.service';

/** The agent a tool call runs as when an MCP client asks for it as a task: in no card, list or agent tool. */
export const TOOL_CALL_AGENT = 'switchboard.tool-call';
/** Where the message of a tool call's task names the tool (the task's own record of it, for scoping and reading). */
export const TOOL_CALL_METADATA_KEY = 'switchboard/tool';
const RESULT_ARTIFACT_ID = 'result';

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
  const part = task.artifacts.find((artifact) => artifact.artifactId === RESULT_ARTIFACT_ID)?.parts[0];
  return part?.content?.$case === 'data' ? (part.content.value as CallToolResult) : undefined;
}

/**
 * One call of a connected MCP server's tool as a durable task (what an MCP client of `/mcp` gets
 * when it calls such a tool as a task): run on a worker under the tools' limits, its result, the
 * server's as it is (an error result too), kept as the task's `result` artifact. When the tool runs
 * as an MCP task on its server, that task's id is saved with the turn, and a worker taking the turn
 * over follows it rather than calling the tool again. Nobody is there to answer the server's
 * sampling or elicitation requests: they are refused.
 */
export class ToolCallExecutor implements AgentTurnExecutor {
  readonly actsOutsideTask = true;

  constructor(
    private readonly mcpTools: McpToolSource,
    private readonly pipeline: ToolPipeline,
  ) {}

  async run(turn: AgentTurn, bus: ExecutionEventBus): Promise<void> {
    const publish = new TurnPublisher(bus, turn.context);
    publish.working(turn.context);
    await this.call(turn, publish, undefined);
  }

  async resume(turn: AgentTurn, bus: ExecutionEventBus): Promise<void> {
    const publish = new TurnPublisher(bus, turn.context);
    const upstreamTask = (turn.progress.saved as { upstreamTask?: unknown } | undefined)?.upstreamTask;
    if (typeof upstreamTask !== 'string') {
      publish.status(
        TaskState.TASK_STATE_FAILED,
        'The worker running this tool call stopped before it returned, so it may or may not have taken effect.',
      );
      return;
    }
    await this.call(turn, publish, upstreamTask);
  }

  private async call(
    { context, signal, progress }: AgentTurn,
    publish: TurnPublisher,
    follow: string | undefined,
  ): Promise<void> {
    const { tool, args } = toolCallOf(context.userMessage);
    const upstreamTask = { follow, onCreated: (taskId: string) => progress.save({ upstreamTask: taskId }) };
    const result = await this.pipeline.bounded(
      tool,
      `task:${context.taskId}`,
      signal,
      CALL_TOOL_RESULT_LIMITER,
      (bounded) => this.mcpTools.call(tool, args, { signal: bounded, upstreamTask }),
    );
    signal.throwIfAborted();
    publish.artifact({
      artifactId: RESULT_ARTIFACT_ID,
      name: RESULT_ARTIFACT_ID,
      parts: [dataPart(result)],
      lastChunk: true,
    });
    publish.status(TaskState.TASK_STATE_COMPLETED);
  }
}

function toolCallOf(message: Message): { tool: string; args: Record<string, unknown> } {
  const value =
    message.parts[0]?.content?.$case === 'data'
      ? (message.parts[0].content.value as { tool?: unknown; arguments?: unknown })
      : undefined;
  if (typeof value?.tool !== 'string') throw new Error('the message names no tool to call');
  const args =
    value.arguments && typeof value.arguments === 'object' && !Array.isArray(value.arguments)
      ? (value.arguments as Record<string, unknown>)
      : {};
  return { tool: value.tool, args };
}
