/** `GET /api/a2a/agents` on the API: the external agents with their discovery status and card summary. */
import { Module } from '@nestjs/common';
import { A2aClientModule } from './a2a-client.module';
import { ExternalAgentsController } from './external-agents.controller';

@Module({
  imports: [A2aClientModule],
  controllers: [ExternalAgentsController],
})
export class ExternalAgentsViewModule {}
