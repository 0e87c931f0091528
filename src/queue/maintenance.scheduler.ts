import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { SwitchboardConfig } from '../config/config.schema';
import { JOB_QUEUE, JobQueue } from './job-queue.interface';
import { JobName } from './queue.constants';

/** Registers the periodic jobs; idempotent, so every process that runs workers may do it. */
@Injectable()
export class MaintenanceScheduler implements OnApplicationBootstrap {
  constructor(
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    private readonly config: ConfigService<SwitchboardConfig, true>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { retention_interval_secs } = this.config.get('tasks', { infer: true });
    await this.queue.schedule(JobName.TaskRetention, retention_interval_secs * 1000);
  }
}
