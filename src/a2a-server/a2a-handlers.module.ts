/** The hosted agents' and the delegates' A2A request handlers, without transports: what the A2A server serves, and what a worker runs delegated tasks through. */
import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { DELEGATE_HANDLERS } from '../agents/tools/delegation/delegate-handlers.interface';
import { AgentCardFactory } from './agent-card.factory';
import { AgentHandlers } from './agent-handlers.service';
import { TaskEventBusManager } from './task-event-bus.manager';

@Module({
  imports: [AgentsModule],
  providers: [
    AgentHandlers,
    AgentCardFactory,
    TaskEventBusManager,
    { provide: DELEGATE_HANDLERS, useExisting: AgentHandlers },
  ],
  exports: [AgentHandlers, AgentCardFactory, TaskEventBusManager, DELEGATE_HANDLERS],
})
export class A2aHandlersModule {}
