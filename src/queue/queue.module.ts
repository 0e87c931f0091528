/** Job queue: BullMQ on Redis in durable mode (queues `agent-turns`, `maintenance`), in-process otherwise. */
import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { SwitchboardConfig } from '../config/config.schema';
import type { StorageMode } from '../config/storage-mode';
import { MetricsModule } from '../metrics/metrics.module';
import { RedisService } from '../redis/redis.service';
import { agentTurnsProcessor } from './agent-turns.processor';
import { BullJobQueue } from './bullmq-job-queue';
import { InProcessJobQueue } from './in-process-job-queue';
import { JobHandlerRegistry } from './job-handler.registry';
import { JOB_QUEUE } from './job-queue.interface';
import { MaintenanceProcessor } from './maintenance.processor';
import { MaintenanceScheduler } from './maintenance.scheduler';
import { PushDeliveriesProcessor } from './push-deliveries.processor';
import { QueueName } from './queue.constants';

@Global()
@Module({})
export class QueueModule {
  static forRoot(mode: StorageMode, runWorkers: boolean, settings: SwitchboardConfig['queue']): DynamicModule {
    const common: Provider[] = [JobHandlerRegistry];
    if (mode.shared === 'memory') {
      return {
        module: QueueModule,
        imports: [DiscoveryModule, MetricsModule],
        providers: [...common, { provide: JOB_QUEUE, useClass: InProcessJobQueue }, MaintenanceScheduler],
        exports: [JOB_QUEUE],
      };
    }
    const workers: Provider[] = runWorkers
      ? [agentTurnsProcessor(settings), PushDeliveriesProcessor, MaintenanceProcessor, MaintenanceScheduler]
      : [];
    return {
      module: QueueModule,
      imports: [
        DiscoveryModule,
        MetricsModule,
        BullModule.forRootAsync({
          inject: [RedisService],
          useFactory: (redis: RedisService) => ({
            // BullMQ's blocking worker connections must retry forever rather than fail a command.
            connection: redis.connectionOptions({ maxRetriesPerRequest: null }),
            prefix: redis.key('bull'),
          }),
        }),
        BullModule.registerQueue(...Object.values(QueueName).map((name) => ({ name }))),
      ],
      providers: [...common, { provide: JOB_QUEUE, useClass: BullJobQueue }, ...workers],
      exports: [JOB_QUEUE],
    };
  }
}
