/** A2A client: external agents discovered from their cards, the SDK's client for each, and `GET /api/a2a/agents`. */
import { Module } from '@nestjs/common';
import { ExternalAgentsController } from './external-agents.controller';
import { ExternalAgents } from './external-agents.service';

@Module({
  controllers: [ExternalAgentsController],
  providers: [ExternalAgents],
  exports: [ExternalAgents],
})
export class A2aClientModule {}
