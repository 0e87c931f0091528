import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { SwitchboardConfig } from '../config/config.schema';
import { OnJob } from '../queue/on-job.decorator';
import { JobName } from '../queue/queue.constants';
import { TASK_STORE, TaskStore } from './task-store.interface';

/** The periodic retention job: evicts terminal tasks past their TTL or beyond the task cap. */
@Injectable()
export class TaskRetentionJob {
  private readonly logger = new Logger(TaskRetentionJob.name);

  constructor(
    @Inject(TASK_STORE) private readonly store: TaskStore,
    private readonly config: ConfigService<SwitchboardConfig, true>,
  ) {}

  @OnJob(JobName.TaskRetention)
  async run(): Promise<{ evicted: number }> {
    const { max_tasks, ttl_secs } = this.config.get('tasks', { infer: true });
    const evicted = await this.store.applyRetention({ maxTasks: max_tasks, ttlMs: ttl_secs * 1000 });
    if (evicted > 0) this.logger.log({ evicted }, 'retention evicted terminal tasks');
    return { evicted };
  }
}
