import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ExternalAgents } from '../a2a-client/external-agents.service';
import {
  AgentConfig,
  AgentProfile,
  DEMO_AGENT_NAME,
  ExternalAgentConfig,
  SwitchboardConfig,
} from '../config/config.schema';
import { redactedUrl } from '../security/redacted-url';
import type { ExternalAgent } from '../a2a-client/external-agent';
import { reconcileByName } from '../common/reconcile-by-name';
import type { Catalog } from '../config/live-catalog';
import { LiveCatalog } from '../config/live-catalog';
import type { AgentTurnExecutor } from './agent-executor.interface';
import { OutboundUrlPolicy } from '../security/outbound-url-policy';
import { createExecutor, type ExecutorDeps } from './executors/create-executor';
import { TOOL_CALL_AGENT, ToolCallExecutor } from './executors/tool-call.executor';
import { MCP_TOOL_SOURCE, McpToolSource } from '../mcp-client/mcp-tool-source.interface';
import { TaskActivity } from '../tasks';
import { ToolPipeline } from './tools/tool-pipeline.service';

export interface HostedAgent {
  config: AgentProfile;
  executor: AgentTurnExecutor;
}

const DEMO_AGENT: AgentConfig = {
  name: DEMO_AGENT_NAME,
  description: 'Demo agent: answers with your own message. Configure [[agents]] to serve real ones.',
  version: '1.0.0',
  skills: [
    {
      id: 'echo',
      name: 'Echo',
      description: 'Repeats the message it receives.',
      tags: ['demo'],
      examples: ['hello'],
    },
  ],
  extended_skills: [],
  input_modes: ['text/plain', 'application/json'],
  output_modes: ['text/plain', 'application/json'],
  executor: { type: 'echo', delay_ms: 0, chunks: 1 },
  tools: [],
  delegates: [],
};

/**
 * An external agent as a local agent that forwards to it: what `a2a_send` and the MCP bridge's
 * `subagent_*` tools run their turns through, so that every delegated task is a durable local task
 * linked to the remote one. Not served over A2A unless an `a2a` agent is configured for it.
 */
function delegateAgent(external: ExternalAgentConfig): AgentConfig {
  return {
    name: external.name,
    description: external.manifest?.description ?? `External A2A agent at ${redactedUrl(external.url)}`,
    version: external.manifest?.version ?? '1.0.0',
    skills: [],
    extended_skills: [],
    input_modes: ['text/plain', 'application/json'],
    output_modes: ['text/plain', 'application/json'],
    executor: { type: 'a2a', agent: external.name },
    tools: [],
    delegates: [],
  };
}

/** A tool call run as a durable task (ToolCallExecutor): an agent of no card, list or tool. */
const TOOL_CALL_PROFILE: AgentProfile = {
  name: TOOL_CALL_AGENT,
  description: 'Runs one tool call of a connected MCP server as a durable task.',
  version: '1.0.0',
  skills: [],
  extended_skills: [],
  input_modes: ['application/json'],
  output_modes: ['application/json'],
  tools: [],
  delegates: [],
};

/**
 * The agents this service hosts, from the live catalog (the demo echo agent when it has none), a
 * delegate agent for each of its external agents, and the agent tool calls run as tasks as. When the
 * catalog changes, an agent whose config is unchanged keeps its executor (a turn running holds the
 * executor it started with and finishes with it; the next turn takes the current one), and the
 * layers above follow through `onChange`.
 */
@Injectable()
export class AgentRegistry {
  private readonly logger = new Logger(AgentRegistry.name);
  private agents = new Map<string, HostedAgent>();
  private agentConfigs: readonly AgentConfig[] = [];
  private delegateAgents = new Map<string, HostedAgent>();
  private delegateConfigs: readonly AgentConfig[] = [];
  /** The external agent an `a2a` executor was made for: one replaced in the catalog needs a new executor. */
  private readonly forwardTargets = new WeakMap<HostedAgent, ExternalAgent>();
  private readonly listeners = new Set<() => void>();
  private readonly deps: ExecutorDeps;
  /** `a2a.default_agent`, a setting of the file. */
  private readonly configuredDefault?: string;
  readonly toolCalls: HostedAgent;

  constructor(
    config: ConfigService<SwitchboardConfig, true>,
    catalog: LiveCatalog,
    tools: ToolPipeline,
    outbound: OutboundUrlPolicy,
    private readonly externalAgents: ExternalAgents,
    @Inject(MCP_TOOL_SOURCE) mcpTools: McpToolSource,
    activity: TaskActivity,
  ) {
    this.deps = { tools, outbound, externalAgents, activity };
    this.configuredDefault = config.get('a2a', { infer: true }).default_agent;
    this.toolCalls = { config: TOOL_CALL_PROFILE, executor: new ToolCallExecutor(mcpTools, tools) };
    this.follow(catalog.current);
    // ExternalAgents, made first, has followed the catalog's external agents when this runs.
    catalog.onChange((next, previous) => {
      if (next.agents !== previous.agents || next.external_agents !== previous.external_agents) this.follow(next);
    });
  }

  /** The agent answering where no agent is named: `a2a.default_agent` while the catalog has it, else the first. */
  get defaultAgentName(): string {
    const configured = this.configuredDefault;
    return configured !== undefined && this.agents.has(configured) ? configured : [...this.agents.keys()][0];
  }

  /** Calls `listener` after the hosted agents, the delegates or the default agent changed. Returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The hosted agents: served over A2A and MCP. */
  all(): HostedAgent[] {
    return [...this.agents.values()];
  }

  /** The external agents' delegates. */
  delegates(): HostedAgent[] {
    return [...this.delegateAgents.values()];
  }

  /** An external agent's delegate. */
  findDelegate(name: string): HostedAgent | undefined {
    return this.delegateAgents.get(name);
  }

  /** A hosted agent, an external agent's delegate, or the tool calls' agent (a worker runs turns of all). */
  find(name: string): HostedAgent | undefined {
    return (
      this.agents.get(name) ?? this.delegateAgents.get(name) ?? (name === TOOL_CALL_AGENT ? this.toolCalls : undefined)
    );
  }

  private follow(catalog: Catalog): void {
    const defaultBefore = this.agents.size > 0 ? this.defaultAgentName : undefined;
    if (catalog.agents.length === 0 && (this.agentConfigs.length !== 1 || this.agentConfigs[0] !== DEMO_AGENT))
      this.logger.warn(`No agents configured: serving the demo agent "${DEMO_AGENT_NAME}"`);
    const configs = catalog.agents.length > 0 ? catalog.agents : [DEMO_AGENT];
    const agents = this.reconciled(this.agentConfigs, configs, this.agents);
    const delegateConfigs = catalog.external_agents.map(delegateAgent);
    const delegates = this.reconciled(this.delegateConfigs, delegateConfigs, this.delegateAgents);
    [this.agentConfigs, this.agents] = [configs, agents.hosted];
    [this.delegateConfigs, this.delegateAgents] = [delegateConfigs, delegates.hosted];
    if (agents.unchanged && delegates.unchanged && defaultBefore === this.defaultAgentName) return;
    for (const listener of this.listeners) listener();
  }

  /**
   * The hosted agents for `configs`, keeping those whose config is unchanged (and, for an `a2a`
   * executor, whose external agent is the same), and whether nothing changed. An agent whose
   * executor cannot be made is left out, and logged.
   */
  private reconciled(
    previous: readonly AgentConfig[],
    configs: readonly AgentConfig[],
    hosted: ReadonlyMap<string, HostedAgent>,
  ): { hosted: Map<string, HostedAgent>; unchanged: boolean } {
    const current = new Map(
      [...hosted].filter(([, agent]) => {
        const target = this.forwardTargets.get(agent);
        return target === undefined || this.externalAgents.find(target.name) === target;
      }),
    );
    const { values, unchanged } = reconcileByName(previous, configs, current, (agent) => this.hosted(agent));
    const made = new Map([...values].filter((entry): entry is [string, HostedAgent] => entry[1] !== undefined));
    return { hosted: made, unchanged: unchanged && current.size === hosted.size };
  }

  private hosted(agent: AgentConfig): HostedAgent | undefined {
    try {
      const hosted: HostedAgent = { config: agent, executor: createExecutor(agent, this.deps) };
      if (agent.executor.type === 'a2a') this.forwardTargets.set(hosted, this.externalAgents.get(agent.executor.agent));
      return hosted;
    } catch (error) {
      this.logger.error(
        { agent: agent.name, err: (error as Error).message },
        'agent left out: its executor cannot be made',
      );
      return undefined;
    }
  }
}
