import { Processor } from '@nestjs/bullmq';
import { MetricsService } from '../metrics/metrics.service';
import { JobDispatchingWorker } from './job-dispatching-worker';
import { JobHandlerRegistry } from './job-handler.registry';
import { QueueName } from './queue.constants';

/** Webhook deliveries wait on other people's servers, so many run at once. */
const PUSH_DELIVERY_CONCURRENCY = 32;

@Processor(QueueName.PushDeliveries, { concurrency: PUSH_DELIVERY_CONCURRENCY })
export class PushDeliveriesProcessor extends JobDispatchingWorker {
  constructor(registry: JobHandlerRegistry, metrics: MetricsService) {
    super(registry, metrics);
  }
}
