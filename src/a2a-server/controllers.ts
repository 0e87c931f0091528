import { Controller, Delete, Get, HttpCode, NotFoundException, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { RequestMalformedError, toRestErrorBody } from '@a2a-js/sdk/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SwitchboardConfig } from '../config/config.schema';
import { MetricsService } from '../health/metrics.service';
import { noteForAccessLog } from '../logging/access-log';
import { attachPrincipal, principalOf } from '../security/principal';
import { Public } from '../security/public.decorator';
import { A2aEndpoints, AgentEndpoint } from './a2a-endpoints.service';
import { AgentAccessGuard } from './agent-access.guard';
import { AgentCardFactory } from './agent-card.factory';
import { baseUrlOf } from './base-url';
import { JsonRpcTransport } from './json-rpc.transport';

/** The HTTP+JSON binding uses GET, POST and DELETE only. */
const AGENT_PATHS = ['agents/:name', 'agents/:name/*'];
const PRIMARY_PATHS = ['', '*'];
/** The binding's SSE answers: `message:stream` and `tasks/{id}:subscribe`, in v1.0 and v0.3. */
const STREAMING_PATH = /:(stream|subscribe)(\?|$)/;

/**
 * The A2A routes. Their prefixes come from config (`a2a.listen_path`, `a2a.rest_path`), so the
 * controller classes are made for the configured paths when the module is built.
 */
export function a2aControllers(a2a: SwitchboardConfig['a2a']) {
  const listen = a2a.listen_path;

  function endpointNamed(endpoints: A2aEndpoints, name: string): AgentEndpoint {
    const endpoint = endpoints.find(name);
    if (!endpoint) throw new NotFoundException({ error: 'agent_not_found', message: `No agent named "${name}"` });
    return endpoint;
  }

  /** Agent cards are public: discovery comes before authentication. */
  @Public()
  @Controller()
  class AgentCardsController {
    private readonly publicUrl: string | undefined;

    constructor(
      private readonly endpoints: A2aEndpoints,
      private readonly cards: AgentCardFactory,
      config: ConfigService<SwitchboardConfig, true>,
    ) {
      this.publicUrl = config.get('server', { infer: true }).public_url;
    }

    @Get(['.well-known/agent-card.json', '.well-known/agent.json'])
    primaryCard(@Req() request: FastifyRequest): Record<string, unknown> {
      return this.document(this.endpoints.primary(), request);
    }

    @Get(`${listen}/agents`)
    list(@Req() request: FastifyRequest): { agents: Record<string, unknown>[]; total: number } {
      const agents = this.endpoints.all().map((endpoint) => this.document(endpoint, request));
      return { agents, total: agents.length };
    }

    @Get(`${listen}/agents/:name/agent-card.json`)
    card(@Param('name') name: string, @Req() request: FastifyRequest): Record<string, unknown> {
      return this.document(endpointNamed(this.endpoints, name), request);
    }

    private document(endpoint: AgentEndpoint, request: FastifyRequest): Record<string, unknown> {
      return this.cards.document(endpoint.agent.config, baseUrlOf(request, this.publicUrl));
    }
  }

  @UseGuards(AgentAccessGuard)
  @Controller(listen)
  class JsonRpcController {
    constructor(
      private readonly endpoints: A2aEndpoints,
      private readonly transport: JsonRpcTransport,
    ) {}

    @Post()
    @HttpCode(200)
    primary(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
      return this.transport.handle(this.endpoints.primary(), request, reply);
    }

    @Post('agents/:name')
    @HttpCode(200)
    agent(@Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
      return this.transport.handle(endpointNamed(this.endpoints, name), request, reply);
    }
  }

  /** The SDK's HTTP+JSON binding is an express router; each request is handed to it whole. */
  @UseGuards(AgentAccessGuard)
  @Controller(a2a.rest_path)
  class RestController {
    constructor(
      private readonly endpoints: A2aEndpoints,
      private readonly metrics: MetricsService,
    ) {}

    @Get(AGENT_PATHS)
    getOfAgent(@Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
      this.toAgent(name, request, reply);
    }

    @Post(AGENT_PATHS)
    postToAgent(@Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
      this.toAgent(name, request, reply);
    }

    @Delete(AGENT_PATHS)
    deleteOfAgent(@Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
      this.toAgent(name, request, reply);
    }

    @Get(PRIMARY_PATHS)
    getOfPrimary(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
      this.forward(this.endpoints.primary(), a2a.rest_path, request, reply);
    }

    @Post(PRIMARY_PATHS)
    postToPrimary(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
      this.forward(this.endpoints.primary(), a2a.rest_path, request, reply);
    }

    @Delete(PRIMARY_PATHS)
    deleteOfPrimary(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
      this.forward(this.endpoints.primary(), a2a.rest_path, request, reply);
    }

    private toAgent(name: string, request: FastifyRequest, reply: FastifyReply): void {
      this.forward(endpointNamed(this.endpoints, name), `${a2a.rest_path}/agents/${name}`, request, reply);
    }

    private forward(endpoint: AgentEndpoint, prefix: string, request: FastifyRequest, reply: FastifyReply): void {
      const raw = request.raw as typeof request.raw & { body?: unknown };
      raw.url = request.url.slice(prefix.length) || '/';
      if (!isObjectOrNothing(request.body)) {
        const problem = new RequestMalformedError('The request body must be a JSON object.');
        void reply.code(400).send(toRestErrorBody(problem, 400));
        return;
      }
      raw.body = request.body;
      const principal = principalOf(request);
      if (principal) attachPrincipal(raw, principal);
      noteForAccessLog(request, { agent: endpoint.agent.config.name });
      reply.hijack();
      if (STREAMING_PATH.test(raw.url)) this.metrics.streamOpened('a2a', reply.raw);
      endpoint.rest(raw as never, reply.raw as never);
    }
  }

  return [AgentCardsController, JsonRpcController, RestController];
}

/** v0.3 clients send `null` for an empty POST body, others none at all. */
function isObjectOrNothing(body: unknown): boolean {
  return body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body));
}
