import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AgentConfig, DEMO_AGENT_NAME, SwitchboardConfig } from '../config/config.schema';
import type { AgentTurnExecutor } from './agent-executor.interface';
import { OutboundUrlPolicy } from '../security/outbound-url-policy';
import { createExecutor } from './executors/create-executor';
import { ToolPipeline } from './tools/tool-pipeline.service';


export interface HostedAgent {
  config: AgentConfig;
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
  input_modes: ['text/plain', 'application/json'],
  output_modes: ['text/plain', 'application/json'],
  executor: { type: 'echo', delay_ms: 0, chunks: 1 },
  tools: [],
};

/** The agents this service hosts, from config; the demo echo agent when none is configured. */
@Injectable()
export class AgentRegistry {
  private readonly logger = new Logger(AgentRegistry.name);
  private readonly agents = new Map<string, HostedAgent>();
  readonly defaultAgentName: string;

  constructor(config: ConfigService<SwitchboardConfig, true>, tools: ToolPipeline, outbound: OutboundUrlPolicy) {
    const configured = config.get('agents', { infer: true });
    if (configured.length === 0) {
      this.logger.warn(`No agents configured: serving the demo agent "${DEMO_AGENT_NAME}"`);
    }
    const deps = { tools, outbound };
    for (const agent of configured.length > 0 ? configured : [DEMO_AGENT]) {
      this.agents.set(agent.name, { config: agent, executor: createExecutor(agent, deps) });
    }
    this.defaultAgentName = config.get('a2a', { infer: true }).default_agent ?? [...this.agents.keys()][0];
  }

  all(): HostedAgent[] {
    return [...this.agents.values()];
  }

  find(name: string): HostedAgent | undefined {
    return this.agents.get(name);
  }
}
