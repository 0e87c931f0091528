import { Controller, Delete, Get, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SwitchboardConfig } from '../config/config.schema';
import { McpHttpEndpoint } from './mcp-http-endpoint.service';

export const MCP_PATH = 'mcp';

/** Streamable HTTP's three verbs at `/mcp`, behind the global bearer and rate-limit guards. */
@Controller(MCP_PATH)
export class McpController {
  constructor(private readonly endpoint: McpHttpEndpoint) {}

  @Post()
  post(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.endpoint.handle(request, reply);
  }

  @Get()
  get(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.endpoint.handle(request, reply);
  }

  @Delete()
  delete(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.endpoint.handle(request, reply);
  }
}

/** Whether a request is a POST to `/mcp`: its refused bodies are answered in JSON-RPC (see RequestErrorFilter). */
export function isMcpRoute(config: Pick<SwitchboardConfig, 'a2a' | 'mcp_server'>): (method: string, path: string) => boolean {
  const served = config.a2a.enabled && config.mcp_server.enabled;
  return (method, path) => served && method === 'POST' && (path === `/${MCP_PATH}` || path === `/${MCP_PATH}/`);
}
