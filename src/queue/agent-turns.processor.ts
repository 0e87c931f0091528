import { Processor } from '@nestjs/bullmq';
import { ConfigService } from '@nestjs/config';
import type { SwitchboardConfig } from '../config/config.schema';
import { JobDispatchingWorker } from './job-dispatching-worker';
import { JobHandlerRegistry } from './job-handler.registry';
import { QueueName } from './queue.constants';

@Processor(QueueName.AgentTurns)
export class AgentTurnsProcessor extends JobDispatchingWorker {
  constructor(registry: JobHandlerRegistry, config: ConfigService<SwitchboardConfig, true>) {
    const queue = config.get('queue', { infer: true });
    super(registry, {
      concurrency: queue.concurrency,
      lockDurationMs: queue.lock_duration_ms,
      stalledIntervalMs: queue.stalled_interval_ms,
    });
  }
}
