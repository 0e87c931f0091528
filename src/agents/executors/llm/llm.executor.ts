import { Message, Part, Role, TaskState } from '@a2a-js/sdk';
import type { ExecutionEventBus } from '@a2a-js/sdk/server';
import type { AgentTurn, AgentTurnExecutor } from '../../agent-executor.interface';
import type { ToolPipeline } from '../../tools/tool-pipeline.service';
import type { Sampler, SamplingRequest } from '../../tools/tool-provider.interface';
import { textPart, TurnPublisher } from '../../../tasks/lifecycle/turn-publisher';
import type { LlmExecutorSettings } from '../../../config/executor-settings.schema';
import { ChatCompletionsClient, ChatMessage, ToolCall } from './chat-completions.client';

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
 */
export class LlmExecutor implements AgentTurnExecutor {
  constructor(
    private readonly agent: LlmAgent,
    private readonly settings: LlmExecutorSettings,
    private readonly client: ChatCompletionsClient,
    private readonly tools: ToolPipeline,
  ) {}

  async run({ context, signal }: AgentTurn, bus: ExecutionEventBus): Promise<void> {
    const publish = new TurnPublisher(bus, context);
    publish.task(context);
    publish.status(TaskState.TASK_STATE_WORKING);
    const sample: Sampler = (request, sampleSignal) => this.sample(request, sampleSignal);
    const session = this.tools.session({ taskId: context.taskId, agent: this.agent.name, callContext: context.context, allow: this.agent.tools, sample });
    const answer = new AnswerStream(publish, `answer-${context.userMessage.messageId}`);
    const messages = this.conversation([...(context.task?.history ?? []), context.userMessage]);
    for (let call = 1; call <= this.settings.max_iterations; call++) {
      const reply = await this.client.complete(messages, session.definitions, signal, (token) => answer.push(token));
      if (reply.toolCalls.length === 0) {
        answer.finish();
        // The answer is the artifact its tokens streamed into; a status message repeating it would be read twice.
        publish.status(TaskState.TASK_STATE_COMPLETED);
        return;
      }
      messages.push({ role: 'assistant', content: reply.content || null, tool_calls: reply.toolCalls });
      for (const toolCall of reply.toolCalls) {
        const result = await session.call(toolCall.function.name, argumentsOf(toolCall), signal);
        messages.push({ role: 'tool', tool_call_id: toolCall.id, content: result.isError ? `Error: ${result.text}` : result.text });
      }
    }
    throw new Error(`the model gave no final answer within ${this.settings.max_iterations} calls (max_iterations)`);
  }

  /** A tool's server asking for a completion (MCP sampling) gets one from this agent's model, without tools. */
  private async sample({ systemPrompt, messages }: SamplingRequest, signal: AbortSignal): Promise<{ model: string; text: string }> {
    const system: ChatMessage[] = systemPrompt ? [{ role: 'system', content: systemPrompt }] : [];
    const reply = await this.client.complete([...system, ...messages.map(({ role, text }) => ({ role, content: text }))], [], signal, () => undefined);
    return { model: this.settings.model, text: reply.content };
  }

  private conversation(history: Message[]): ChatMessage[] {
    const system: ChatMessage[] = this.settings.system_prompt ? [{ role: 'system', content: this.settings.system_prompt }] : [];
    const turns = history
      .filter((message) => message.parts.length > 0)
      .map((message): ChatMessage => (message.role === Role.ROLE_AGENT ? { role: 'assistant', content: textOf(message.parts) } : { role: 'user', content: textOf(message.parts) }));
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
    this.publish.artifact({ artifactId: this.artifactId, name: 'answer', parts: [textPart(text)], append: this.started, lastChunk });
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

/** A tool call's arguments; malformed JSON from the model becomes no arguments, for the tool to refuse. */
function argumentsOf(call: ToolCall): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(call.function.arguments || '{}');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
