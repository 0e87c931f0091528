import type { CallToolResult } from '@modelcontextprotocol/client';
import type { McpToolSource } from '../../mcp-client/mcp-tool-source.interface';
import type { ToolDefinition, ToolProvider, ToolResult } from './tool-provider.interface';

/** The tools of the connected MCP servers (`mcp_{server}_{tool}`), for the agents' pipeline. */
export class McpToolProvider implements ToolProvider {
  constructor(private readonly source: McpToolSource) {}

  definitions(): ToolDefinition[] {
    return this.source.list().map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
  }

  has(name: string): boolean {
    return this.source.list().some((tool) => tool.name === name);
  }

  async call(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> {
    const result = await this.source.call(name, args, { signal });
    return { text: textOf(result), isError: result.isError === true };
  }
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
