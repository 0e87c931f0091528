import { Controller, Get, HttpCode, HttpStatus, Inject, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { FastifyRequest } from 'fastify';
import { ExternalAgents } from '../a2a-client/external-agents.service';
import type { ExternalAgentsView } from '../a2a-client/external-agents.view';
import { AgentCardFactory } from '../a2a-server/agent-card.factory';
import { baseUrlOf } from '../a2a-server/base-url';
import { AgentRegistry } from '../agents/agent-registry.service';
import { CatalogReader } from '../catalog/catalog-reader.service';
import type { CatalogEntryView } from '../catalog/catalog-views';
import type { SwitchboardConfig } from '../config/config.schema';
import { McpConnectionManager } from '../mcp-client/mcp-connection-manager.service';
import { McpReconnectAnswer, reconnectServer } from '../mcp-client/mcp-servers.controller';
import type { McpServersView } from '../mcp-client/mcp-servers.view';
import { PROCESS_PRESENCE, ProcessPresence } from '../presence/process-presence.interface';
import { AdminGuard } from '../security/admin.guard';
import { OperatorOverview, OperatorOverviewService } from './operator-overview.service';

export interface HostedAgentView {
  name: string;
  description: string;
  cardUrl: string;
  card: Record<string, unknown>;
}

/** The operator's views of the service: overview, agents, MCP servers (admin API, for the console). */
@Controller('api/admin')
@UseGuards(AdminGuard)
export class AdminController {
  private readonly publicUrl: string | undefined;
  private readonly a2aPath: string;

  constructor(
    private readonly overviews: OperatorOverviewService,
    private readonly agents: AgentRegistry,
    private readonly cards: AgentCardFactory,
    private readonly externalAgents: ExternalAgents,
    private readonly mcp: McpConnectionManager,
    @Inject(PROCESS_PRESENCE) private readonly presence: ProcessPresence,
    private readonly catalog: CatalogReader,
    config: ConfigService<SwitchboardConfig, true>,
  ) {
    this.publicUrl = config.get('server', { infer: true }).public_url;
    this.a2aPath = config.get('a2a', { infer: true }).listen_path;
  }

  @Get('overview')
  overview(): Promise<OperatorOverview> {
    return this.overviews.overview();
  }

  /** The hosted and external agents as they run, and the catalog's agent entries (source, version). */
  @Get('agents')
  async agentsView(
    @Req() request: FastifyRequest,
  ): Promise<{ hosted: HostedAgentView[]; external: ExternalAgentsView; entries: CatalogEntryView[] }> {
    const baseUrl = baseUrlOf(request, this.publicUrl);
    const hosted = this.agents.all().map(({ config }) => ({
      name: config.name,
      description: config.description,
      cardUrl: `${baseUrl}${this.a2aPath}/agents/${encodeURIComponent(config.name)}/agent-card.json`,
      card: this.cards.document(config, baseUrl),
    }));
    return { hosted, external: this.externalAgents.describe(), entries: await this.catalog.list('agents') };
  }

  /** What `GET /api/mcp/servers` answers, each stdio server's last stderr lines, and the catalog's MCP server entries. */
  @Get('mcp-servers')
  async mcpServers(): Promise<McpServersView & { entries: CatalogEntryView[] }> {
    return { ...this.mcp.describeForOperators(), entries: await this.catalog.list('mcp_servers') };
  }

  /** The same as `POST /api/mcp/servers/{name}/reconnect`, under the path the console's session reaches. */
  @Post('mcp-servers/:name/reconnect')
  @HttpCode(HttpStatus.ACCEPTED)
  reconnect(@Param('name') name: string): McpReconnectAnswer {
    return reconnectServer(this.mcp, this.presence, name);
  }
}
