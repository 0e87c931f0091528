import { Controller, Delete, Get, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
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
