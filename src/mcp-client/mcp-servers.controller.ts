import { Controller, Get } from '@nestjs/common';
import { McpConnectionManager } from './mcp-connection-manager.service';
import type { McpServersView } from './mcp-servers.view';

@Controller('api/mcp')
export class McpServersController {
  constructor(private readonly manager: McpConnectionManager) {}

  /** Configured MCP servers with their status, and the live connections with their tools. */
  @Get('servers')
  servers(): McpServersView {
    return this.manager.describe();
  }
}
