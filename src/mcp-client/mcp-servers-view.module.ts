/** `GET /api/mcp/servers` on the API: the configured MCP servers with their status, connections and tools. */
import { Module } from '@nestjs/common';
import { McpClientModule } from './mcp-client.module';
import { McpServersController } from './mcp-servers.controller';

@Module({
  imports: [McpClientModule],
  controllers: [McpServersController],
})
export class McpServersViewModule {}
