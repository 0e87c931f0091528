/** The agent runtime: configured agents, their tools, their turns on the queue's workers, and webhook deliveries. */
import { Module } from '@nestjs/common';
import { AgentRegistry } from './agent-registry.service';
import { ToolPipeline } from './tools/tool-pipeline.service';
import { TOOL_PROVIDERS } from './tools/tool-provider.interface';
import { PushDeliveryJob } from './push/push-delivery.job';
import { PushNotifier } from './push/push-notifier.service';
import { TurnRecorderFactory } from './turns/turn-recorder.factory';
import { TurnRunner } from './turns/turn-runner.service';

@Module({
  providers: [
    AgentRegistry,
    PushNotifier,
    PushDeliveryJob,
    TurnRecorderFactory,
    TurnRunner,
    ToolPipeline,
    // Tool families register here as they arrive (MCP servers next).
    { provide: TOOL_PROVIDERS, useValue: [] },
  ],
  exports: [AgentRegistry, TurnRecorderFactory],
})
export class AgentsModule {}
