import type { TurnProgress } from '../../agent-executor.interface';
import type { ToolCallRequest } from '../../tools/tool-session';
import type { ChatMessage, ToolCall } from './chat-completions.client';

/** The tool call under way when the steps were saved, and its MCP task on its server once the server named one. */
export interface RunningToolCall {
  toolCallId: string;
  upstreamTask?: string;
}

interface SavedSteps {
  steps: ChatMessage[];
  running?: RunningToolCall;
}

/**
 * What an LLM turn saves of its progress (TurnProgress): the model's tool calls and their results
 * so far, as the chat messages the model is sent, and the tool call under way. A worker taking the
 * turn over asks the model nothing it has answered and makes no finished call again.
 */
export class LlmTurnSteps {
  private readonly saved: ChatMessage[];
  private current?: RunningToolCall;

  constructor(private readonly progress: TurnProgress) {
    const { steps, running } = (progress.saved ?? {}) as Partial<SavedSteps>;
    this.saved = Array.isArray(steps) ? [...steps] : [];
    this.current = running;
  }

  get steps(): readonly ChatMessage[] {
    return this.saved;
  }

  /** The tool call the earlier run was in when it stopped, if any. */
  get interrupted(): RunningToolCall | undefined {
    return this.current;
  }

  /** How many times the model was asked in the turn so far (each of its tool-calling replies is a step). */
  get modelCalls(): number {
    return this.saved.filter((message) => message.role === 'assistant').length;
  }

  /** The calls that have their results, as the tool session's loop guard counts them. */
  finishedCalls(): ToolCallRequest[] {
    const answered = this.answeredIds();
    return this.saved
      .flatMap((message) => (message.role === 'assistant' ? (message.tool_calls ?? []) : []))
      .filter((call) => answered.has(call.id))
      .map((call) => ({ name: call.function.name, args: toolArguments(call) }));
  }

  /** The calls of the model's last reply that have no result yet: the earlier run stopped among them. */
  unfinishedCalls(): ToolCall[] {
    const lastReply = this.saved.findLast((message) => message.role === 'assistant');
    const answered = this.answeredIds();
    return (lastReply?.role === 'assistant' ? (lastReply.tool_calls ?? []) : []).filter(
      (call) => !answered.has(call.id),
    );
  }

  replied(reply: ChatMessage): Promise<void> {
    this.saved.push(reply);
    return this.save(undefined);
  }

  calling(running: RunningToolCall): Promise<void> {
    return this.save(running);
  }

  answered(result: ChatMessage): Promise<void> {
    this.saved.push(result);
    return this.save(undefined);
  }

  private save(running: RunningToolCall | undefined): Promise<void> {
    this.current = running;
    const steps: SavedSteps = { steps: this.saved, ...(running && { running }) };
    return this.progress.save(steps);
  }

  private answeredIds(): Set<string> {
    return new Set(this.saved.flatMap((message) => (message.role === 'tool' ? [message.tool_call_id] : [])));
  }
}

/** A tool call's arguments; malformed JSON from the model becomes no arguments, for the tool to refuse. */
export function toolArguments(call: ToolCall): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(call.function.arguments || '{}');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
