import { SpanKind } from '@opentelemetry/api';
import { inSpan } from '../../../tracing/spans';
import type { ToolDefinition } from '../../tools/tool-provider.interface';
import type { LlmExecutorSettings } from '../../../config/executor-settings.schema';

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ChatReply {
  content: string;
  toolCalls: ToolCall[];
  /** Tokens, when the provider reports them. */
  usage?: TokenUsage;
}

interface TokenUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
}

/** The provider failed, refused or timed out: the message says which, for the task's `failed` status. */
export class LlmProviderError extends Error {}

interface StreamChunk {
  error?: { message?: string };
  usage?: TokenUsage | null;
  choices?: {
    delta?: { content?: string | null; tool_calls?: ToolCallDelta[] };
    message?: { content?: string | null; tool_calls?: ToolCall[] };
  }[];
}

interface ToolCallDelta {
  index: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

/**
 * One streamed call to an OpenAI-compatible `/chat/completions` endpoint: tokens are handed to
 * `onToken` as they arrive, tool calls are assembled from their deltas. Bounded by
 * `request_timeout_secs`, aborted with the turn.
 */
export class ChatCompletionsClient {
  constructor(
    private readonly settings: LlmExecutorSettings,
    private readonly fetch: typeof globalThis.fetch,
  ) {}

  /** In a client span (GenAI conventions): the model, and the tokens when the provider reports them. */
  complete(
    messages: ChatMessage[],
    tools: ToolDefinition[],
    signal: AbortSignal,
    onToken: (text: string) => void,
  ): Promise<ChatReply> {
    const { model, base_url } = this.settings;
    const attributes = () => ({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': model,
      'server.address': new URL(base_url).hostname,
    });
    return inSpan(
      `chat ${model}`,
      () => ({ kind: SpanKind.CLIENT, attributes: attributes() }),
      async (span) => {
        const reply = await this.request(messages, tools, signal, onToken);
        span?.setAttributes({
          'switchboard.llm.tool_calls': reply.toolCalls.length,
          ...(reply.usage?.prompt_tokens !== undefined && { 'gen_ai.usage.input_tokens': reply.usage.prompt_tokens }),
          ...(reply.usage?.completion_tokens !== undefined && {
            'gen_ai.usage.output_tokens': reply.usage.completion_tokens,
          }),
        });
        return reply;
      },
    );
  }

  private async request(
    messages: ChatMessage[],
    tools: ToolDefinition[],
    signal: AbortSignal,
    onToken: (text: string) => void,
  ): Promise<ChatReply> {
    const { base_url, model, api_key, temperature, request_timeout_secs } = this.settings;
    const timeout = AbortSignal.timeout(request_timeout_secs * 1000);
    const body = {
      model,
      messages,
      stream: true,
      ...(tools.length > 0 && {
        tools: tools.map(({ name, description, inputSchema }) => ({
          type: 'function',
          function: { name, description, parameters: inputSchema },
        })),
      }),
      ...(temperature !== undefined && { temperature }),
    };
    try {
      const response = await this.fetch(`${base_url.replace(/\/+$/, '')}/chat/completions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          ...(api_key && { authorization: `Bearer ${api_key}` }),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.any([signal, timeout]),
      });
      if (!response.ok)
        throw new LlmProviderError(
          `the model provider answered HTTP ${response.status}: ${(await response.text()).slice(0, 500)}`,
        );
      if (!response.headers.get('content-type')?.includes('text/event-stream'))
        return wholeReply((await response.json()) as StreamChunk, onToken);
      return await streamedReply(response, onToken);
    } catch (error) {
      if (signal.aborted) throw error;
      if (timeout.aborted)
        throw new LlmProviderError(`the model provider did not finish within ${request_timeout_secs} s`);
      if (error instanceof LlmProviderError) throw error;
      throw new LlmProviderError(`the model provider could not be reached: ${(error as Error).message}`);
    }
  }
}

/** A provider that ignored `stream: true` and answered in one JSON document. */
function wholeReply(chunk: StreamChunk, onToken: (text: string) => void): ChatReply {
  if (chunk.error)
    throw new LlmProviderError(`the model provider reported an error: ${chunk.error.message ?? 'unknown'}`);
  const message = chunk.choices?.[0]?.message;
  if (message?.content) onToken(message.content);
  return {
    content: message?.content ?? '',
    toolCalls: message?.tool_calls ?? [],
    ...(chunk.usage && { usage: chunk.usage }),
  };
}

async function streamedReply(response: Response, onToken: (text: string) => void): Promise<ChatReply> {
  let content = '';
  let usage: TokenUsage | undefined;
  const calls: ToolCall[] = [];
  for await (const data of sseData(response)) {
    if (data === '[DONE]') break;
    const chunk = JSON.parse(data) as StreamChunk;
    if (chunk.error)
      throw new LlmProviderError(`the model provider reported an error: ${chunk.error.message ?? 'unknown'}`);
    usage = chunk.usage ?? usage;
    const delta = chunk.choices?.[0]?.delta;
    if (delta?.content) {
      content += delta.content;
      onToken(delta.content);
    }
    for (const part of delta?.tool_calls ?? []) {
      const call = (calls[part.index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
      if (part.id) call.id = part.id;
      if (part.function?.name) call.function.name += part.function.name;
      if (part.function?.arguments) call.function.arguments += part.function.arguments;
    }
  }
  return { content, toolCalls: calls.filter(Boolean), ...(usage && { usage }) };
}

/** The `data:` payloads of a server-sent event stream, one per event. */
async function* sseData(response: Response): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(bytes, { stream: true });
    let boundary: number;
    while ((boundary = buffered.search(/\r?\n\r?\n/)) >= 0) {
      const event = buffered.slice(0, boundary);
      buffered = buffered.slice(boundary).replace(/^\r?\n\r?\n/, '');
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      if (data) yield data;
    }
  }
}
