import { Controller, Get, Injectable, Param, Req } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { FastifyRequest } from 'fastify';
import type { SwitchboardConfig } from '../config/config.schema';
import { Public } from '../security/public.decorator';
import { A2aEndpoints, AgentEndpoint } from './a2a-endpoints.service';
import { AgentCardFactory } from './agent-card.factory';
import { AgentEndpointPipe } from './agent-endpoint.pipe';
import { baseUrlOf } from './base-url';

/** Agent cards are public: discovery comes before authentication. */
@Injectable()
abstract class CardsController {
  private readonly publicUrl: string | undefined;

  constructor(
    protected readonly endpoints: A2aEndpoints,
    private readonly cards: AgentCardFactory,
    config: ConfigService<SwitchboardConfig, true>,
  ) {
    this.publicUrl = config.get('server', { infer: true }).public_url;
  }

  protected document(endpoint: AgentEndpoint, request: FastifyRequest): Record<string, unknown> {
    return this.cards.document(endpoint.agent.config, baseUrlOf(request, this.publicUrl));
  }
}

/** The primary agent's card at the well-known paths. */
@Public()
@Controller('.well-known')
export class WellKnownCardController extends CardsController {
  @Get(['agent-card.json', 'agent.json'])
  primaryCard(@Req() request: FastifyRequest): Record<string, unknown> {
    return this.document(this.endpoints.primary(), request);
  }
}

/** Every agent's card, under `a2a.listen_path` (controllers.ts). */
@Public()
@Controller()
export class AgentCardsController extends CardsController {
  @Get('agents')
  list(@Req() request: FastifyRequest): { agents: Record<string, unknown>[]; total: number } {
    const agents = this.endpoints.all().map((endpoint) => this.document(endpoint, request));
    return { agents, total: agents.length };
  }

  /** Also where clients given an agent's URL look for its card (`{url}/.well-known/agent-card.json`, 0.2-era `agent.json`). */
  @Get([
    'agents/:name/agent-card.json',
    'agents/:name/.well-known/agent-card.json',
    'agents/:name/.well-known/agent.json',
  ])
  card(
    @Param('name', AgentEndpointPipe) endpoint: AgentEndpoint,
    @Req() request: FastifyRequest,
  ): Record<string, unknown> {
    return this.document(endpoint, request);
  }
}
