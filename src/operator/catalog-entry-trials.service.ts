import { Injectable } from '@nestjs/common';
import type { Tool } from '@modelcontextprotocol/client';
import { ExternalAgentUnavailableError } from '../a2a-client/a2a-client.errors';
import { ExternalAgent } from '../a2a-client/external-agent';
import { ExternalAgents } from '../a2a-client/external-agents.service';
import { CatalogEditor } from '../catalog/catalog-editor.service';
import type { ExternalAgentConfig, McpServerConfig } from '../config/config.schema';
import { listToolsOnce } from '../mcp-client/mcp-server-probe';
import { OutboundUrlPolicy } from '../security/outbound-url-policy';

export interface McpServerTrial {
  tools: { name: string; description?: string }[];
}

export interface AgentCardTrial {
  cardUrl: string;
  /** As the agent publishes it (v1.0 or v0.3 JSON). */
  card: Record<string, unknown>;
}

/**
 * An entry tried before it is saved: checked as a create would check it (400, 403), then reached
 * once with the catalog's own client code, and let go. Nothing is stored or kept.
 */
@Injectable()
export class CatalogEntryTrials {
  constructor(
    private readonly editor: CatalogEditor,
    private readonly policy: OutboundUrlPolicy,
    private readonly externalAgents: ExternalAgents,
  ) {}

  /** The tools the server would bring; McpServerUnavailableError says why there are none. */
  async mcpServer(body: unknown): Promise<McpServerTrial> {
    const server = (await this.editor.resolved('mcp_servers', body)) as McpServerConfig;
    const tools = await listToolsOnce(server, this.policy);
    return { tools: tools.map(({ name, description }: Tool) => ({ name, description })) };
  }

  /** The agent's card, discovered as the catalog would (the SSRF rules on its interface too); ExternalAgentUnavailableError says why not. */
  async agentCard(body: unknown): Promise<AgentCardTrial> {
    const config = (await this.editor.resolved('external_agents', body)) as ExternalAgentConfig;
    const agent = new ExternalAgent(config, this.policy, this.externalAgents.settings);
    try {
      await agent.discover();
      const { card_url, error } = agent.status();
      if (!agent.up || !agent.cardDocument || !card_url)
        throw new ExternalAgentUnavailableError(config.name, error ?? 'no card was read');
      return { cardUrl: card_url, card: agent.cardDocument };
    } finally {
      agent.stop();
    }
  }
}
