/** The agent runtime: configured agents, their turns on the queue's workers, and webhook deliveries. */
import { Module } from '@nestjs/common';
import { AgentRegistry } from './agent-registry.service';
import { PushDeliveryJob } from './push/push-delivery.job';
import { PushNotifier } from './push/push-notifier.service';
import { TurnRecorderFactory } from './turns/turn-recorder.factory';
import { TurnRunner } from './turns/turn-runner.service';

@Module({
  providers: [AgentRegistry, PushNotifier, PushDeliveryJob, TurnRecorderFactory, TurnRunner],
  exports: [AgentRegistry, TurnRecorderFactory],
})
export class AgentsModule {}
