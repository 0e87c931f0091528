import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { SwitchboardConfig } from '../config/config.schema';
import { JOB_QUEUE, JobQueue } from './job-queue.interface';
import { JobName } from './queue.constants';

/** Audit entries are kept for days: removing the expired ones hourly is soon enough. */
const AUDIT_RETENTION_EVERY_MS = 3600 * 1000;

/**
 * Registers the periodic jobs at boot, then checks as often as the most frequent of them runs that
 * they are still registered: a Redis restarted without persistence has lost them, and they come
 * back without a worker restart. Idempotent, so every process that runs workers may do it.
 */
@Injectable()
export class MaintenanceScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MaintenanceScheduler.name);
  private readonly periods: Partial<Record<JobName, number>>;
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    config: ConfigService<SwitchboardConfig, true>,
  ) {
    const { retention_interval_secs, orphan_sweep_secs } = config.get('tasks', { infer: true });
    this.periods = {
      [JobName.TaskRetention]: retention_interval_secs * 1000,
      [JobName.OrphanedTaskSweep]: orphan_sweep_secs * 1000,
      [JobName.AuditRetention]: AUDIT_RETENTION_EVERY_MS,
    };
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.register();
    this.timer = setInterval(
      () => void this.register().catch((error: Error) => this.warn(error)),
      Math.min(...Object.values(this.periods)),
    );
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  private async register(): Promise<void> {
    for (const [name, everyMs] of Object.entries(this.periods)) await this.queue.schedule(name as JobName, everyMs);
  }

  private warn(error: Error): void {
    this.logger.warn({ err: error.message }, 'could not check the maintenance schedule; trying again later');
  }
}
