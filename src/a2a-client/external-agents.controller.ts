import { Controller, Get } from '@nestjs/common';
import { ExternalAgents } from './external-agents.service';
import type { ExternalAgentsView } from './external-agents.view';

@Controller('api/a2a')
export class ExternalAgentsController {
  constructor(private readonly agents: ExternalAgents) {}

  /** Every configured external agent with its discovery status and card summary. */
  @Get('agents')
  agentsView(): ExternalAgentsView {
    return this.agents.describe();
  }
}
