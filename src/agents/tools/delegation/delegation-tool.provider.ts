import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ModuleRef } from '@nestjs/core';
import { ExternalAgents } from '../../../a2a-client/external-agents.service';
import type { SwitchboardConfig } from '../../../config/config.schema';
import { OutboundUrlPolicy } from '../../../security/outbound-url-policy';
import { AgentRegistry } from '../../agent-registry.service';
import { failure } from '../tool-limits';
import { ToolPipeline } from '../tool-pipeline.service';
import type { ToolCallContext, ToolDefinition, ToolOrigin, ToolProvider, ToolResult } from '../tool-provider.interface';
import { A2aDiscoverTool } from './a2a-discover.tool';
import { A2aSendTool } from './a2a-send.tool';
import { DELEGATE_HANDLERS, DelegateHandlers } from './delegate-handlers.interface';
import type { DelegationTool } from './delegation-tool.interface';
import { DelegationRules } from './delegation-rules';

const DELEGATION: ToolOrigin = { kind: 'delegation', server: '' };

/**
 * The A2A delegation tools (`a2a_discover`, `a2a_send`) for the agents' pipeline, when A2A is on:
 * a2a_send runs its tasks through the delegates' A2A handlers (DELEGATE_HANDLERS), which the A2A
 * server's handlers module builds on the agents, so they are looked up at the first call rather
 * than injected. Agents only, in a turn: not offered over /mcp.
 */
@Injectable()
export class DelegationToolProvider implements ToolProvider {
  private readonly tools: Map<string, DelegationTool>;
  private handlers?: DelegateHandlers;

  constructor(
    pipeline: ToolPipeline,
    agents: AgentRegistry,
    externalAgents: ExternalAgents,
    outbound: OutboundUrlPolicy,
    config: ConfigService<SwitchboardConfig, true>,
    moduleRef: ModuleRef,
  ) {
    const rules = new DelegationRules(agents, externalAgents);
    const delegates: DelegateHandlers = {
      findDelegate: (name) =>
        (this.handlers ??= moduleRef.get<DelegateHandlers>(DELEGATE_HANDLERS, { strict: false })).findDelegate(name),
    };
    const tools: DelegationTool[] = [
      new A2aDiscoverTool(rules, outbound, externalAgents.settings.max_card_bytes),
      new A2aSendTool(rules, delegates, config.get('tools', { infer: true }).timeout_secs),
    ];
    this.tools = new Map(tools.map((tool) => [tool.definition.name, tool]));
    if (config.get('a2a', { infer: true }).enabled) pipeline.addProvider(this);
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

  call(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    context?: ToolCallContext,
  ): Promise<ToolResult> {
    const tool = this.tools.get(name);
    if (!tool) throw new Error(`no delegation tool "${name}"`);
    if (!context) return Promise.resolve(failure(`Tool "${name}" is only available to agents, in a turn.`));
    return tool.call(args, signal, context);
  }
}
