import { Processor } from '@nestjs/bullmq';
import { MetricsService } from '../metrics/metrics.service';
import { JobDispatchingWorker } from './job-dispatching-worker';
import { JobHandlerRegistry } from './job-handler.registry';
import { QueueName } from './queue.constants';

/** Housekeeping (retention) runs one job at a time: it is periodic and never urgent. */
@Processor(QueueName.Maintenance, { concurrency: 1 })
export class MaintenanceProcessor extends JobDispatchingWorker {
  constructor(registry: JobHandlerRegistry, metrics: MetricsService) {
    super(registry, metrics);
  }
}
