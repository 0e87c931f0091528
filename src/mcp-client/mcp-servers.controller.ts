import {
  Controller,
  Get,
  HttpCode,
  HttpStatus,
  Inject,
  NotFoundException,
  Param,
  Post,
  UseGuards,
} from '@nestjs/common';
import { PROCESS_PRESENCE, ProcessPresence } from '../presence/process-presence.interface';
import { AdminGuard } from '../security/admin.guard';
import { McpConnectionManager } from './mcp-connection-manager.service';
import type { McpServersView } from './mcp-servers.view';

/** What a reconnect answers: it has begun, on the one replica that took the request. */
export interface McpReconnectAnswer {
  reconnecting: true;
  /** The process whose connection is renewed; every other replica and worker keeps its own. */
  replica: string;
}

@Controller('api/mcp')
export class McpServersController {
  constructor(
    private readonly manager: McpConnectionManager,
    @Inject(PROCESS_PRESENCE) private readonly presence: ProcessPresence,
  ) {}

  /** Configured MCP servers with their status, and the live connections with their tools. */
  @Get('servers')
  servers(): McpServersView {
    return this.manager.describe();
  }

  /** Drops and reopens one server's connection on this replica (operators only). */
  @Post('servers/:name/reconnect')
  @HttpCode(HttpStatus.ACCEPTED)
  @UseGuards(AdminGuard)
  reconnect(@Param('name') name: string): McpReconnectAnswer {
    return reconnectServer(this.manager, this.presence, name);
  }
}

/** Reconnects server `name` here; 404 for a name no server has. */
export function reconnectServer(
  manager: McpConnectionManager,
  presence: ProcessPresence,
  name: string,
): McpReconnectAnswer {
  if (!manager.reconnect(name))
    throw new NotFoundException(`No MCP server named "${name}" is configured (see GET /api/mcp/servers).`);
  return { reconnecting: true, replica: presence.self.id };
}
