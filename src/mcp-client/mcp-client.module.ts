/** MCP client: connections to the configured MCP servers and their tools for agents (their view is McpServersViewModule). */
import { Module } from '@nestjs/common';
import { MCP_CATALOG_SOURCE } from './mcp-catalog-source.interface';
import { McpConnectionManager } from './mcp-connection-manager.service';
import { MCP_TOOL_SOURCE } from './mcp-tool-source.interface';

@Module({
  providers: [
    McpConnectionManager,
    { provide: MCP_TOOL_SOURCE, useExisting: McpConnectionManager },
    { provide: MCP_CATALOG_SOURCE, useExisting: McpConnectionManager },
  ],
  exports: [McpConnectionManager, MCP_TOOL_SOURCE, MCP_CATALOG_SOURCE],
})
export class McpClientModule {}
