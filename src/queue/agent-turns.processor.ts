import { Processor } from '@nestjs/bullmq';
import type { SwitchboardConfig } from '../config/config.schema';
import { MetricsService } from '../metrics/metrics.service';
import { JobDispatchingWorker } from './job-dispatching-worker';
import { JobHandlerRegistry } from './job-handler.registry';
import { QueueName } from './queue.constants';

/**
 * The worker of agent turns. BullMQ takes its lock and stall settings when the worker is created
 * (from @Processor's options), so the class is made for the configured values.
 */
export function agentTurnsProcessor(queue: SwitchboardConfig['queue']) {
  @Processor(QueueName.AgentTurns, {
    concurrency: queue.concurrency,
    lockDuration: queue.lock_duration_ms,
    stalledInterval: queue.stalled_interval_ms,
  })
  class AgentTurnsProcessor extends JobDispatchingWorker {
    constructor(registry: JobHandlerRegistry, metrics: MetricsService) {
      super(registry, metrics);
    }
  }
  return AgentTurnsProcessor;
}
