import { Injectable, NotFoundException, PipeTransform } from '@nestjs/common';
import { A2aEndpoints, AgentEndpoint } from './a2a-endpoints.service';

/** A route's agent name (`:name`), as the agent's endpoint; an unknown name is a 404. */
@Injectable()
export class AgentEndpointPipe implements PipeTransform<string, AgentEndpoint> {
  constructor(private readonly endpoints: A2aEndpoints) {}

  transform(name: string): AgentEndpoint {
    const endpoint = this.endpoints.find(name);
    if (!endpoint) throw new NotFoundException({ error: 'agent_not_found', message: `No agent named "${name}"` });
    return endpoint;
  }
}
