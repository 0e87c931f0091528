import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { ExternalAgentConfig, SwitchboardConfig } from '../config/config.schema';
import { LiveCatalog } from '../config/live-catalog';
import { reconcileByName } from '../common/reconcile-by-name';
import { MetricsService, Sample } from '../metrics/metrics.service';
import { OutboundUrlPolicy } from '../security/outbound-url-policy';
import { UnknownExternalAgentError } from './a2a-client.errors';
import { ExternalAgent } from './external-agent';
import type { A2aClientSettings } from '../config/external-agent.schema';
import { describeExternalAgents, type ExternalAgentsView } from './external-agents.view';

/**
 * The live catalog's external A2A agents (`[[a2a.external_agents]]`, ARDF manifests, the admin
 * API's). Discovery starts after boot and never holds it up; an agent that comes up later is found
 * by its retries. When the catalog's external agents change, a removed one stops, an added one
 * starts, and a changed one is replaced.
 */
@Injectable()
export class ExternalAgents implements OnApplicationBootstrap, OnApplicationShutdown {
  private agents: Map<string, ExternalAgent>;
  readonly settings: A2aClientSettings;
  /** Agents added after boot start at once; those of the boot's catalog wait for it. */
  private started = false;
  private readonly stopFollowing: () => void;

  constructor(
    config: ConfigService<SwitchboardConfig, true>,
    catalog: LiveCatalog,
    private readonly policy: OutboundUrlPolicy,
    metrics: MetricsService,
  ) {
    this.settings = config.get('a2a', { infer: true }).client;
    this.agents = new Map(catalog.current.external_agents.map((agent) => [agent.name, this.externalAgent(agent)]));
    this.stopFollowing = catalog.onChange((next, previous) => {
      if (next.external_agents !== previous.external_agents) this.follow(next.external_agents);
    });
    metrics.externalAgentUp.readFrom(() =>
      this.all().map((agent): Sample<'agent'> => [{ agent: agent.name }, agent.up ? 1 : 0]),
    );
  }

  onApplicationBootstrap(): void {
    this.started = true;
    for (const agent of this.agents.values()) agent.start();
  }

  onApplicationShutdown(): void {
    this.stopFollowing();
    for (const agent of this.agents.values()) agent.stop();
  }

  private follow(configs: readonly ExternalAgentConfig[]): void {
    const previous = [...this.agents.values()].map((agent) => agent.config);
    const { values, made, dropped, unchanged } = reconcileByName(previous, configs, this.agents, (agent) =>
      this.externalAgent(agent),
    );
    if (unchanged) return;
    this.agents = values;
    for (const agent of dropped) agent.stop();
    if (this.started) for (const agent of made) agent.start();
  }

  private externalAgent(config: ExternalAgentConfig): ExternalAgent {
    return new ExternalAgent(config, this.policy, this.settings);
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
