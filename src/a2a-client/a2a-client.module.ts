/** A2A client: external agents discovered from their cards, and the SDK's client for each (their view is ExternalAgentsViewModule). */
import { Module } from '@nestjs/common';
import { ExternalAgents } from './external-agents.service';

@Module({
  providers: [ExternalAgents],
  exports: [ExternalAgents],
})
export class A2aClientModule {}
