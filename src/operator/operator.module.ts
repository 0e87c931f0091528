/** The admin JSON API (`/api/admin/*`) the operator console is built on: overview, agents, MCP servers, every owner's tasks, the audit trail. */
import { Module } from '@nestjs/common';
import { A2aClientModule } from '../a2a-client/a2a-client.module';
import { A2aHandlersModule } from '../a2a-server/a2a-handlers.module';
import { AgentsModule } from '../agents/agents.module';
import { McpClientModule } from '../mcp-client/mcp-client.module';
import { AdminAuditController } from './admin-audit.controller';
import { AdminCatalogController } from './admin-catalog.controller';
import { AdminCatalogTrialsController } from './admin-catalog-trials.controller';
import { CatalogEntryTrials } from './catalog-entry-trials.service';
import { AdminTasksController } from './admin-tasks.controller';
import { AdminController } from './admin.controller';
import { OperatorOverviewService } from './operator-overview.service';
import { OperatorTasks } from './operator-tasks.service';

@Module({
  imports: [AgentsModule, A2aHandlersModule, A2aClientModule, McpClientModule],
  controllers: [
    AdminController,
    AdminTasksController,
    AdminAuditController,
    AdminCatalogController,
    AdminCatalogTrialsController,
  ],
  providers: [OperatorOverviewService, OperatorTasks, CatalogEntryTrials],
})
export class OperatorModule {}
