import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { SwitchboardConfig } from '../config/config.schema';
import { MetricsService, Sample } from '../metrics/metrics.service';
import { OutboundUrlPolicy } from '../security/outbound-url-policy';
import { UnknownExternalAgentError } from './a2a-client.errors';
import { ExternalAgent } from './external-agent';
import type { A2aClientSettings } from '../config/external-agent.schema';
import { describeExternalAgents, type ExternalAgentsView } from './external-agents.view';

/**
 * The configured external A2A agents (`[[a2a.external_agents]]` and ARDF manifests). Discovery
 * starts after boot and never holds it up; an agent that comes up later is found by its retries.
 */
@Injectable()
export class ExternalAgents implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly agents: Map<string, ExternalAgent>;
  readonly settings: A2aClientSettings;

  constructor(config: ConfigService<SwitchboardConfig, true>, policy: OutboundUrlPolicy, metrics: MetricsService) {
    const a2a = config.get('a2a', { infer: true });
    this.settings = a2a.client;
    this.agents = new Map(
      a2a.external_agents.map((agent) => [agent.name, new ExternalAgent(agent, policy, a2a.client)]),
    );
    metrics.externalAgentUp.readFrom(() =>
      this.all().map((agent): Sample<'agent'> => [{ agent: agent.name }, agent.up ? 1 : 0]),
    );
  }

  onApplicationBootstrap(): void {
    for (const agent of this.agents.values()) agent.start();
  }

  onApplicationShutdown(): void {
    for (const agent of this.agents.values()) agent.stop();
  }

  all(): ExternalAgent[] {
    return [...this.agents.values()];
  }

  find(name: string): ExternalAgent | undefined {
    return this.agents.get(name);
  }

  get(name: string): ExternalAgent {
    const agent = this.agents.get(name);
    if (!agent) throw new UnknownExternalAgentError(name);
    return agent;
  }

  describe(): ExternalAgentsView {
    return describeExternalAgents(this.all());
  }
}
