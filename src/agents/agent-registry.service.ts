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
import type { AgentTurnExecutor } from './agent-executor.interface';
import { OutboundUrlPolicy } from '../security/outbound-url-policy';
import { createExecutor } from './executors/create-executor';
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
 * The agents this service hosts, from config (the demo echo agent when none is configured), a
 * delegate agent for each external agent, and the agent tool calls run as tasks as.
 */
@Injectable()
export class AgentRegistry {
  private readonly logger = new Logger(AgentRegistry.name);
  private readonly agents = new Map<string, HostedAgent>();
  private readonly delegateAgents = new Map<string, HostedAgent>();
  readonly defaultAgentName: string;
  readonly toolCalls: HostedAgent;

  constructor(
    config: ConfigService<SwitchboardConfig, true>,
    tools: ToolPipeline,
    outbound: OutboundUrlPolicy,
    externalAgents: ExternalAgents,
    @Inject(MCP_TOOL_SOURCE) mcpTools: McpToolSource,
    activity: TaskActivity,
  ) {
    const configured = config.get('agents', { infer: true });
    if (configured.length === 0) {
      this.logger.warn(`No agents configured: serving the demo agent "${DEMO_AGENT_NAME}"`);
    }
    const deps = { tools, outbound, externalAgents, activity };
    for (const agent of configured.length > 0 ? configured : [DEMO_AGENT]) {
      this.agents.set(agent.name, { config: agent, executor: createExecutor(agent, deps) });
    }
    for (const external of config.get('a2a', { infer: true }).external_agents) {
      const agent = delegateAgent(external);
      this.delegateAgents.set(agent.name, { config: agent, executor: createExecutor(agent, deps) });
    }
    this.defaultAgentName = config.get('a2a', { infer: true }).default_agent ?? [...this.agents.keys()][0];
    this.toolCalls = { config: TOOL_CALL_PROFILE, executor: new ToolCallExecutor(mcpTools, tools) };
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
}
