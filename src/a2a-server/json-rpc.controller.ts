import { Controller, HttpCode, Param, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RefusalsAnswered } from '../common/request-error.filter';
import { A2aEndpoints, AgentEndpoint } from './a2a-endpoints.service';
import { AgentAccessGuard } from './agent-access.guard';
import { AgentEndpointPipe } from './agent-endpoint.pipe';
import { JsonRpcExceptionFilter, jsonRpcRefusal } from './json-rpc-exception.filter';
import { JsonRpcTransport } from './json-rpc.transport';

/** A2A JSON-RPC, for the primary agent and for each agent by name, under `a2a.listen_path` (controllers.ts). */
@UseGuards(AgentAccessGuard)
@UseFilters(JsonRpcExceptionFilter)
@Controller()
export class JsonRpcController {
  constructor(
    private readonly endpoints: A2aEndpoints,
    private readonly transport: JsonRpcTransport,
  ) {}

  @Post()
  @HttpCode(200)
  @RefusalsAnswered(jsonRpcRefusal)
  primary(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.transport.handle(this.endpoints.primary(), request, reply);
  }

  @Post('agents/:name')
  @HttpCode(200)
  @RefusalsAnswered(jsonRpcRefusal)
  agent(
    @Param('name', AgentEndpointPipe) endpoint: AgentEndpoint,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return this.transport.handle(endpoint, request, reply);
  }
}
