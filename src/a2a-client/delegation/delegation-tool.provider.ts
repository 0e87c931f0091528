import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { A2aEndpoints } from '../../a2a-server/a2a-endpoints.service';
import { AgentRegistry } from '../../agents/agent-registry.service';
import { failure } from '../../agents/tools/tool-limits';
import { ToolPipeline } from '../../agents/tools/tool-pipeline.service';
import type { ToolCallContext, ToolDefinition, ToolOrigin, ToolProvider, ToolResult } from '../../agents/tools/tool-provider.interface';
import type { SwitchboardConfig } from '../../config/config.schema';
import { OutboundUrlPolicy } from '../../security/outbound-url-policy';
import { ExternalAgents } from '../external-agents.service';
import { A2aDiscoverTool } from './a2a-discover.tool';
import { A2aSendTool } from './a2a-send.tool';
import { DelegationRules } from './delegation-rules';

const DELEGATION: ToolOrigin = { kind: 'delegation', server: '' };

/** One delegation tool: it acts for the agent turn calling it. */
export interface DelegationTool {
  readonly definition: ToolDefinition;
  call(args: Record<string, unknown>, signal: AbortSignal, caller: ToolCallContext): Promise<ToolResult>;
}

/**
 * The A2A delegation tools (`a2a_discover`, `a2a_send`) for the agents' pipeline. It lives with the
 * A2A server, whose handlers run the delegated tasks, and so joins the pipeline itself (see
 * ToolPipeline.addProvider). Agents only, in a turn: not offered over /mcp.
 */
@Injectable()
export class DelegationToolProvider implements ToolProvider {
  private readonly tools: Map<string, DelegationTool>;

  constructor(
    pipeline: ToolPipeline,
    endpoints: A2aEndpoints,
    agents: AgentRegistry,
    externalAgents: ExternalAgents,
    outbound: OutboundUrlPolicy,
    config: ConfigService<SwitchboardConfig, true>,
  ) {
    const rules = new DelegationRules(agents, externalAgents);
    const tools: DelegationTool[] = [
      new A2aDiscoverTool(rules, endpoints, outbound, externalAgents.settings.max_card_bytes),
      new A2aSendTool(rules, endpoints, config.get('tools', { infer: true }).timeout_secs),
    ];
    this.tools = new Map(tools.map((tool) => [tool.definition.name, tool]));
    pipeline.addProvider(this);
  }

  definitions(): ToolDefinition[] {
    return [...this.tools.values()].map((tool) => tool.definition);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  originOf(name: string): ToolOrigin | undefined {
    return this.tools.has(name) ? DELEGATION : undefined;
  }

  call(name: string, args: Record<string, unknown>, signal: AbortSignal, context?: ToolCallContext): Promise<ToolResult> {
    const tool = this.tools.get(name);
    if (!tool) throw new Error(`no delegation tool "${name}"`);
    if (!context) return Promise.resolve(failure(`Tool "${name}" is only available to agents, in a turn.`));
    return tool.call(args, signal, context);
  }
}
