import { type Message, type Part, Role, TaskState } from '@a2a-js/sdk';
import type { ExecutionEventBus } from '@a2a-js/sdk/server';
import type { AgentTurn, AgentTurnExecutor } from '../../agent-executor.interface';
import { failure } from '../../tools/tool-limits';
import type { ToolPipeline } from '../../tools/tool-pipeline.service';
import type { Sampler, SamplingRequest, ToolResult } from '../../tools/tool-provider.interface';
import type { ToolSession } from '../../tools/tool-session';
import { TurnPublisher, withMessage } from '../../../tasks';
import { textPart } from '../../../common/parts';
import type { LlmExecutorSettings } from '../../../config/executor-settings.schema';
import { type ChatCompletionsClient, type ChatMessage, type ToolCall } from './chat-completions.client';
import { LlmTurnSteps, toolArguments } from './llm-turn-steps';

export interface LlmAgent {
  name: string;
  /** The agent's tool allowlist. */
  tools: readonly string[];
}

/**
 * A turn of an LLM agent: the model is called with the conversation and the agent's tools; its
 * tool calls run through the tool pipeline and their results go back to it, until it answers
 * without calling a tool. Tokens stream out as chunks of one `answer` artifact; the answer ends the
 * turn `completed`. Provider errors and timeouts end it `failed` (thrown, for the turn runner).
 * Each step is saved with the turn, so a worker taking it over goes on from there (`resume`).
 */
export class LlmExecutor implements AgentTurnExecutor {
  readonly actsOutsideTask = true;

  constructor(
    private readonly agent: LlmAgent,
    private readonly settings: LlmExecutorSettings,
    private readonly client: ChatCompletionsClient,
    private readonly tools: ToolPipeline,
  ) {}

  async run(turn: AgentTurn, bus: ExecutionEventBus): Promise<void> {
    const publish = new TurnPublisher(bus, turn.context);
    publish.working(turn.context);
    await this.converse(turn, publish);
  }

  /**
   * Goes on from the steps the turn saved (LlmTurnSteps): a tool call cut off by the worker's death
   * is followed to its end when it ran as an upstream MCP task, and otherwise reported to the model
   * as cut off (it may or may not have taken effect); the model is asked again only what it had not
   * answered.
   */
  async resume(turn: AgentTurn, bus: ExecutionEventBus): Promise<void> {
    await this.converse(turn, new TurnPublisher(bus, turn.context));
  }

  private async converse({ context, signal, progress }: AgentTurn, publish: TurnPublisher): Promise<void> {
    const steps = new LlmTurnSteps(progress);
    const sample: Sampler = (request, sampleSignal) => this.sample(request, sampleSignal);
    const session = this.tools.session({
      taskId: context.taskId,
      agent: this.agent.name,
      callContext: context.context,
      allow: this.agent.tools,
      sample,
      earlier: steps.finishedCalls(),
    });
    const answer = new AnswerStream(publish, `answer-${context.userMessage.messageId}`);
    const conversation = this.conversation(withMessage(context.task?.history ?? [], context.userMessage));
    await this.callTools(steps.unfinishedCalls(), session, steps, signal);
    for (let call = steps.modelCalls + 1; call <= this.settings.max_iterations; call++) {
      const reply = await this.client.complete(
        [...conversation, ...steps.steps],
        session.definitions,
        signal,
        (token) => answer.push(token),
      );
      if (reply.toolCalls.length === 0) {
        answer.finish();
        // The answer is the artifact its tokens streamed into; a status message repeating it would be read twice.
        publish.status(TaskState.TASK_STATE_COMPLETED);
        return;
      }
      await steps.replied({ role: 'assistant', content: reply.content || null, tool_calls: reply.toolCalls });
      await this.callTools(reply.toolCalls, session, steps, signal);
    }
    throw new Error(`the model gave no final answer within ${this.settings.max_iterations} calls (max_iterations)`);
  }

  /** Runs the model's tool calls in order, each saved as it starts (with its upstream task, once named) and as it ends. */
  private async callTools(
    calls: ToolCall[],
    session: ToolSession,
    steps: LlmTurnSteps,
    signal: AbortSignal,
  ): Promise<void> {
    for (const toolCall of calls) {
      const interrupted = steps.interrupted?.toolCallId === toolCall.id ? steps.interrupted : undefined;
      let result: ToolResult;
      if (interrupted && !interrupted.upstreamTask) {
        result = failure(
          'The call was cut off: the worker running it stopped before it returned, so it may or may not have taken effect.',
        );
      } else {
        await steps.calling({ toolCallId: toolCall.id, upstreamTask: interrupted?.upstreamTask });
        const upstreamTask = {
          follow: interrupted?.upstreamTask,
          onCreated: (taskId: string) => steps.calling({ toolCallId: toolCall.id, upstreamTask: taskId }),
        };
        result = await session.call(toolCall.function.name, toolArguments(toolCall), signal, upstreamTask);
      }
      await steps.answered({
        role: 'tool',
        tool_call_id: toolCall.id,
        content: result.isError ? `Error: ${result.text}` : result.text,
      });
    }
  }

  /** A tool's server asking for a completion (MCP sampling) gets one from this agent's model, without tools. */
  private async sample(
    { systemPrompt, messages }: SamplingRequest,
    signal: AbortSignal,
  ): Promise<{ model: string; text: string }> {
    const system: ChatMessage[] = systemPrompt ? [{ role: 'system', content: systemPrompt }] : [];
    const reply = await this.client.complete(
      [...system, ...messages.map(({ role, text }) => ({ role, content: text }))],
      [],
      signal,
      () => undefined,
    );
    return { model: this.settings.model, text: reply.content };
  }

  private conversation(history: Message[]): ChatMessage[] {
    const system: ChatMessage[] = this.settings.system_prompt
      ? [{ role: 'system', content: this.settings.system_prompt }]
      : [];
    const turns = history
      .filter((message) => message.parts.length > 0)
      .map((message): ChatMessage =>
        message.role === Role.ROLE_AGENT
          ? { role: 'assistant', content: textOf(message.parts) }
          : { role: 'user', content: textOf(message.parts) },
      );
    return [...system, ...turns];
  }
}

/**
 * Streams tokens as chunks of one artifact, holding the newest back so that the last chunk can be
 * marked `lastChunk` when the answer ends.
 */
class AnswerStream {
  private held?: string;
  private started = false;

  constructor(
    private readonly publish: TurnPublisher,
    private readonly artifactId: string,
  ) {}

  push(token: string): void {
    if (this.held !== undefined) this.emit(this.held, false);
    this.held = token;
  }

  finish(): void {
    if (this.held !== undefined) this.emit(this.held, true);
    this.held = undefined;
  }

  private emit(text: string, lastChunk: boolean): void {
    this.publish.artifact({
      artifactId: this.artifactId,
      name: 'answer',
      parts: [textPart(text)],
      append: this.started,
      lastChunk,
    });
    this.started = true;
  }
}

/** A message's parts as the text a chat model reads: text as is, data as JSON, files by name. */
function textOf(parts: Part[]): string {
  return parts
    .map((part) => {
      switch (part.content?.$case) {
        case 'text':
          return part.content.value;
        case 'data':
          return JSON.stringify(part.content.value);
        case 'url':
          return `[file: ${part.filename || part.content.value}]`;
        case 'raw':
          return `[file: ${part.filename || 'attachment'}]`;
        default:
          return '';
      }
    })
    .join('\n');
}
