/** MCP client: connections to the configured MCP servers, their tools for agents, and `GET /api/mcp/servers`. */
import { Module } from '@nestjs/common';
import { MCP_CATALOG_SOURCE } from './mcp-catalog-source.interface';
import { McpConnectionManager } from './mcp-connection-manager.service';
import { MCP_TOOL_SOURCE } from './mcp-tool-source.interface';
import { McpServersController } from './mcp-servers.controller';

@Module({
  controllers: [McpServersController],
  providers: [McpConnectionManager, { provide: MCP_TOOL_SOURCE, useExisting: McpConnectionManager }, { provide: MCP_CATALOG_SOURCE, useExisting: McpConnectionManager }],
  exports: [MCP_TOOL_SOURCE, MCP_CATALOG_SOURCE],
})
export class McpClientModule {}
