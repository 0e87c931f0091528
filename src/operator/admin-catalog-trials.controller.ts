import { Body, Controller, HttpCode, HttpStatus, Post, UseFilters, UseGuards } from '@nestjs/common';
import { AdminGuard } from '../security/admin.guard';
import { CatalogErrorFilter } from './catalog-error.filter';
import { CatalogEntryTrials, type AgentCardTrial, type McpServerTrial } from './catalog-entry-trials.service';
import { UpstreamTrialErrorFilter } from './upstream-trial-error.filter';

/**
 * What the console's "Test connection" and "Fetch card" ask: an entry's body (as POST would take it)
 * tried once, without saving it. Refused as the catalog refuses; 502 when the upstream fails.
 */
@Controller('api/admin')
@UseGuards(AdminGuard)
@UseFilters(CatalogErrorFilter, UpstreamTrialErrorFilter)
export class AdminCatalogTrialsController {
  constructor(private readonly trials: CatalogEntryTrials) {}

  @Post('mcp-servers/test')
  @HttpCode(HttpStatus.OK)
  testMcpServer(@Body() body: unknown): Promise<McpServerTrial> {
    return this.trials.mcpServer(body);
  }

  @Post('external-agents/fetch-card')
  @HttpCode(HttpStatus.OK)
  fetchAgentCard(@Body() body: unknown): Promise<AgentCardTrial> {
    return this.trials.agentCard(body);
  }
}
