import { RequestMalformedError } from '@a2a-js/sdk/errors';
import { Controller, Delete, Get, Param, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SwitchboardConfig } from '../config/config.schema';
import { MetricsService } from '../metrics/metrics.service';
import { noteForAccessLog } from '../logging/access-log';
import { attachPrincipal, principalOf } from '../security/principal';
import { A2aEndpoints, AgentEndpoint } from './a2a-endpoints.service';
import { AgentAccessGuard } from './agent-access.guard';
import { AgentEndpointPipe } from './agent-endpoint.pipe';
import { RestExceptionFilter } from './rest-exception.filter';

/** The HTTP+JSON binding uses GET, POST and DELETE only. */
const AGENT_PATHS = ['agents/:name', 'agents/:name/*'];
const PRIMARY_PATHS = ['', '*'];
/** The binding's SSE answers: `message:stream` and `tasks/{id}:subscribe`, in v1.0 and v0.3. */
const STREAMING_PATH = /:(stream|subscribe)(\?|$)/;

/**
 * The HTTP+JSON binding (v1.0, and v0.3 when enabled) under `a2a.rest_path` (controllers.ts), for the
 * primary agent and for each agent by name. The SDK's binding is an express router per agent; each
 * request is handed to it whole.
 */
@UseGuards(AgentAccessGuard)
@UseFilters(RestExceptionFilter)
@Controller()
export class RestController {
  private readonly restPath: string;

  constructor(
    private readonly endpoints: A2aEndpoints,
    private readonly metrics: MetricsService,
    config: ConfigService<SwitchboardConfig, true>,
  ) {
    this.restPath = config.get('a2a', { infer: true }).rest_path;
  }

  @Get(AGENT_PATHS)
  getOfAgent(
    @Param('name', AgentEndpointPipe) endpoint: AgentEndpoint,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): void {
    this.toAgent(endpoint, request, reply);
  }

  @Post(AGENT_PATHS)
  postToAgent(
    @Param('name', AgentEndpointPipe) endpoint: AgentEndpoint,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): void {
    this.toAgent(endpoint, request, reply);
  }

  @Delete(AGENT_PATHS)
  deleteOfAgent(
    @Param('name', AgentEndpointPipe) endpoint: AgentEndpoint,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): void {
    this.toAgent(endpoint, request, reply);
  }

  @Get(PRIMARY_PATHS)
  getOfPrimary(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    this.forward(this.endpoints.primary(), this.restPath, request, reply);
  }

  @Post(PRIMARY_PATHS)
  postToPrimary(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    this.forward(this.endpoints.primary(), this.restPath, request, reply);
  }

  @Delete(PRIMARY_PATHS)
  deleteOfPrimary(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    this.forward(this.endpoints.primary(), this.restPath, request, reply);
  }

  private toAgent(endpoint: AgentEndpoint, request: FastifyRequest, reply: FastifyReply): void {
    const name = (request.params as { name: string }).name;
    this.forward(endpoint, `${this.restPath}/agents/${name}`, request, reply);
  }

  private forward(endpoint: AgentEndpoint, prefix: string, request: FastifyRequest, reply: FastifyReply): void {
    const raw = request.raw as typeof request.raw & { body?: unknown };
    raw.url = request.url.slice(prefix.length) || '/';
    if (!isObjectOrNothing(request.body)) throw new RequestMalformedError('The request body must be a JSON object.');
    raw.body = request.body;
    const principal = principalOf(request);
    if (principal) attachPrincipal(raw, principal);
    noteForAccessLog(request, { agent: endpoint.agent.config.name });
    reply.hijack();
    if (STREAMING_PATH.test(raw.url)) this.metrics.streamOpened('a2a', reply.raw);
    endpoint.rest(raw as never, reply.raw as never);
  }
}

/** v0.3 clients send `null` for an empty POST body, others none at all. */
function isObjectOrNothing(body: unknown): boolean {
  return body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body));
}
