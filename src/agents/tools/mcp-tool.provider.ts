import {
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type CreateMessageRequest,
  type CreateMessageResult,
} from '@modelcontextprotocol/client';
import type {
  McpToolSource,
  UpstreamRequest,
  UpstreamRequestHandler,
  UpstreamTaskRecord,
} from '../../mcp-client/mcp-tool-source.interface';
import type {
  Sampler,
  ToolCallContext,
  ToolDefinition,
  ToolOrigin,
  ToolProvider,
  ToolResult,
} from './tool-provider.interface';

/** The tools of the connected MCP servers (`mcp_{server}_{tool}`), for the agents' pipeline. */
export class McpToolProvider implements ToolProvider {
  constructor(private readonly source: McpToolSource) {}

  definitions(): ToolDefinition[] {
    return this.source.list().map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
  }

  /** A tool of a configured server, listed or not: a call to one not listed now fails naming its server (down, still connecting). */
  has(name: string): boolean {
    return this.source.serverOf(name) !== undefined;
  }

  originOf(name: string): ToolOrigin | undefined {
    const server = this.source.serverOf(name);
    return server === undefined ? undefined : { kind: 'mcp', server };
  }

  async call(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    context?: ToolCallContext,
    upstreamTask?: UpstreamTaskRecord,
  ): Promise<ToolResult> {
    const onrequest = context && answeredBy(context.agent, context.sample);
    const result = await this.source.call(name, args, { signal, onrequest, upstreamTask });
    return { text: textOf(result), isError: result.isError === true };
  }
}

/** What an agent answers of a server's requests during its call: sampling with its own model, if it has one; never elicitation (no user is there). */
function answeredBy(agent: string, sample: Sampler | undefined): UpstreamRequestHandler {
  return async (request: UpstreamRequest, signal: AbortSignal) => {
    if (request.method !== 'sampling/createMessage' || !sample) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        `Agent "${agent}" (through Switchboard) cannot answer ${request.method}`,
      );
    }
    return sampled(await sample(samplingRequest(request.params), signal));
  };
}

/** The conversation a server asks a completion for, as text: other content is named, not sent. */
function samplingRequest({ systemPrompt, messages }: CreateMessageRequest['params']) {
  return {
    systemPrompt,
    messages: messages.map(({ role, content }) => ({
      role,
      text: [content]
        .flat()
        .map((block) => (block.type === 'text' ? block.text : `[${block.type}]`))
        .join('\n'),
    })),
  };
}

function sampled({ model, text }: { model: string; text: string }): CreateMessageResult {
  return { model, role: 'assistant', content: { type: 'text', text }, stopReason: 'endTurn' };
}

/** A tool result as text for a model: text blocks as they are, other blocks described, structured output as JSON. */
function textOf(result: CallToolResult): string {
  const blocks = result.content.map((block) => {
    switch (block.type) {
      case 'text':
        return block.text;
      case 'resource':
        return 'text' in block.resource ? block.resource.text : `[resource ${block.resource.uri}]`;
      case 'resource_link':
        return `[resource ${block.uri}]`;
      default:
        return `[${block.type}${'mimeType' in block ? ` ${block.mimeType}` : ''}]`;
    }
  });
  if (blocks.length === 0 && result.structuredContent) return JSON.stringify(result.structuredContent);
  return blocks.join('\n');
}
