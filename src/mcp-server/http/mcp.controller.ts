import { Controller, Delete, Get, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RefusalsAnswered, refusalAsJsonRpc } from '../../common/request-error.filter';
import { McpHttpEndpoint } from './mcp-http-endpoint.service';

const MCP_PATH = 'mcp';

/** Requests refused before the controller ran, as JSON-RPC errors with the HTTP status the MCP SDK's transport gives them. */
const mcpRefusal = refusalAsJsonRpc({
  400: { code: -32700, httpStatus: 400 },
  415: { code: -32000, httpStatus: 415 },
  413: { code: -32600, httpStatus: 413 },
});

/** Streamable HTTP's three verbs at `/mcp`, behind the global bearer and rate-limit guards. */
@Controller(MCP_PATH)
export class McpController {
  constructor(private readonly endpoint: McpHttpEndpoint) {}

  @Post()
  @RefusalsAnswered(mcpRefusal)
  post(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.endpoint.handle(request, reply);
  }

  @Get()
  @RefusalsAnswered(mcpRefusal)
  get(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.endpoint.handle(request, reply);
  }

  @Delete()
  @RefusalsAnswered(mcpRefusal)
  delete(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.endpoint.handle(request, reply);
  }
}
