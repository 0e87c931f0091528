import { CanActivate, ExecutionContext, ForbiddenException, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { principalOf } from '../security/principal';
import { A2aEndpoints } from './a2a-endpoints.service';
import { agentRefusal } from '../security/access-scope';

/**
 * Refuses, with 403, an A2A request to an agent outside the caller's reach (`auth.rules`, a key's `agents`). Runs after
 * the bearer guard. Routes without an agent name serve the primary agent; an unknown name is left
 * to the route's 404.
 */
@Injectable()
export class AgentAccessGuard implements CanActivate {
  constructor(private readonly endpoints: A2aEndpoints) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const principal = principalOf(request);
    if (!principal) return true;
    const named = (request.params as { name?: string } | undefined)?.name;
    const endpoint = named === undefined ? this.endpoints.primary() : this.endpoints.find(named);
    if (!endpoint || principal.scope.allowsAgent(endpoint.agent.config.name)) return true;
    throw new ForbiddenException({
      error: 'agent_not_allowed',
      message: agentRefusal(principal.name, endpoint.agent.config.name),
    });
  }
}
