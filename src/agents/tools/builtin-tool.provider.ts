import { Injectable } from '@nestjs/common';
import { OutboundUrlPolicy } from '../../security/outbound-url-policy';
import type { BuiltinTool } from './builtin/builtin-tool.interface';
import { WebFetchTool } from './builtin/web-fetch.tool';
import type { ToolDefinition, ToolOrigin, ToolProvider, ToolResult } from './tool-provider.interface';

const BUILTIN: ToolOrigin = { kind: 'builtin', server: '' };

/** The tools the service implements itself (`web_fetch`), for the agents' pipeline. */
@Injectable()
export class BuiltinToolProvider implements ToolProvider {
  private readonly tools: Map<string, BuiltinTool>;

  constructor(outbound: OutboundUrlPolicy) {
    this.tools = new Map([new WebFetchTool(outbound)].map((tool) => [tool.definition.name, tool]));
  }

  definitions(): ToolDefinition[] {
    return [...this.tools.values()].map((tool) => tool.definition);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  originOf(name: string): ToolOrigin | undefined {
    return this.tools.has(name) ? BUILTIN : undefined;
  }

  call(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> {
    const tool = this.tools.get(name);
    if (!tool) throw new Error(`no built-in tool "${name}"`);
    return tool.call(args, signal);
  }
}
