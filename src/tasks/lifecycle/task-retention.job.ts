import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { SwitchboardConfig } from '../../config/config.schema';
import { OnJob } from '../../queue/on-job.decorator';
import { JobName } from '../../queue/queue.constants';
import { CANCEL_SIGNALS, CancelSignals } from '../cancel/cancel-signals.interface';
import { TaskActivity } from '../activity/task-activity.service';
import { TASK_EVENT_STREAM, TaskEventStream } from '../events/task-event-stream.interface';
import { TASK_STORE, TaskStore } from '../../task-store/task-store.interface';

/**
 * The periodic retention job: evicts terminal tasks past their TTL or beyond the task cap, and with
 * them their event streams, cancel requests and activity, so that what is kept per task is bounded by the cap.
 */
@Injectable()
export class TaskRetentionJob {
  private readonly logger = new Logger(TaskRetentionJob.name);

  constructor(
    @Inject(TASK_STORE) private readonly store: TaskStore,
    @Inject(TASK_EVENT_STREAM) private readonly stream: TaskEventStream,
    @Inject(CANCEL_SIGNALS) private readonly cancelSignals: CancelSignals,
    private readonly activity: TaskActivity,
    private readonly config: ConfigService<SwitchboardConfig, true>,
  ) {}

  @OnJob(JobName.TaskRetention)
  async run(): Promise<{ evicted: number }> {
    const { max_tasks, ttl_secs } = this.config.get('tasks', { infer: true });
    const evicted = await this.store.applyRetention({ maxTasks: max_tasks, ttlMs: ttl_secs * 1000 }, (taskIds) =>
      this.forget(taskIds),
    );
    if (evicted > 0) this.logger.log({ evicted }, 'retention evicted terminal tasks');
    return { evicted };
  }

  /**
   * A failure leaves the keys to their own expiry (an hour for a closed stream, a day for a cancel
   * request); activity rows it could not delete stay behind, which the log line tells.
   */
  private async forget(taskIds: string[]): Promise<void> {
    await Promise.all([
      this.stream.remove(taskIds),
      this.cancelSignals.forget(taskIds),
      this.activity.remove(taskIds),
    ]).catch((error: Error) =>
      this.logger.warn(
        { tasks: taskIds.length, err: error.message },
        'could not remove the event streams, cancel requests and activity of evicted tasks',
      ),
    );
  }
}
