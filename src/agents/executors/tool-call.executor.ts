import { TaskState } from '@a2a-js/sdk';
import type { ExecutionEventBus } from '@a2a-js/sdk/server';
import type { McpToolSource } from '../../mcp-client/mcp-tool-source.interface';
import { TurnPublisher } from '../../tasks';
import { dataPart } from '../../common/parts';
import type { AgentTurn, AgentTurnExecutor } from '../agent-executor.interface';
import { TOOL_CALL_RESULT_ARTIFACT, toolCallOf } from '../tool-call-task';
import { CALL_TOOL_RESULT_LIMITER } from '../tools/call-tool-result-limiter';
import type { ToolPipeline } from '../tools/tool-pipeline.service';

/** The agent a tool call runs as when an MCP client asks for it as a task: in no card, list or agent tool. */
export const TOOL_CALL_AGENT = 'switchboard.tool-call';

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
      artifactId: TOOL_CALL_RESULT_ARTIFACT,
      name: TOOL_CALL_RESULT_ARTIFACT,
      parts: [dataPart(result)],
      lastChunk: true,
    });
    publish.status(TaskState.TASK_STATE_COMPLETED);
  }
}
