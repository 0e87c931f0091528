import { Inject, Injectable, Logger } from '@nestjs/common';
import type { LiveChannel } from '../events/live-channel';
import { TASK_ACTIVITY_STORE, TaskActivityEntry, TaskActivityStore } from './task-activity.interface';

export const TASK_ACTIVITY_FEED = Symbol('TASK_ACTIVITY_FEED');

/** An entry as it is recorded, for live views of its task. */
export interface RecordedActivity {
  taskId: string;
  entry: TaskActivityEntry;
}

/**
 * Records what tasks do besides their events (tool calls, delegations, webhook deliveries) and tells
 * live views. Recording is a side note: a failure is logged and never fails the turn or the delivery.
 */
@Injectable()
export class TaskActivity {
  private readonly logger = new Logger(TaskActivity.name);

  constructor(
    @Inject(TASK_ACTIVITY_STORE) private readonly store: TaskActivityStore,
    @Inject(TASK_ACTIVITY_FEED) private readonly feed: LiveChannel<RecordedActivity>,
  ) {}

  async record(taskId: string, entry: TaskActivityEntry): Promise<void> {
    try {
      await this.store.append(taskId, entry);
      await this.feed.publish({ taskId, entry });
    } catch (error) {
      this.logger.warn({ taskId, kind: entry.kind, err: (error as Error).message }, 'task activity not recorded');
    }
  }

  list(taskId: string): Promise<TaskActivityEntry[]> {
    return this.store.list(taskId);
  }

  /** Calls `listener` with every entry recorded from when the promise resolves; resolves to the function that stops that. */
  listen(listener: (recorded: RecordedActivity) => void): Promise<() => void> {
    return this.feed.listen(listener);
  }

  /** The entries of tasks evicted by retention. */
  remove(taskIds: string[]): Promise<void> {
    return this.store.remove(taskIds);
  }
}
