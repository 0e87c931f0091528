import { Injectable, Logger } from '@nestjs/common';
import { TaskEventFeed, TaskView } from '../../tasks';
import { changesTask } from './task-resource';

/**
 * Changes of tasks as MCP resource updates: a task's shared event stream (every replica reads it;
 * a worker writes it) followed from a given position, one call per state change or artifact, until
 * the task ends or the follower stops. `shared` follows a task once per replica for any number of
 * listeners (2026-07-28 `subscriptions/listen` streams, which the SDK filters per URI).
 */
@Injectable()
export class TaskUpdates {
  private readonly logger = new Logger(TaskUpdates.name);
  private readonly followed = new Map<string, { listeners: Set<() => void>; stop: AbortController }>();

  private readonly stream: TaskEventFeed;

  constructor(tasks: TaskView) {
    this.stream = tasks.events;
  }

  /** The stream's current end: following from it yields every change made from now on. */
  position(taskId: string): Promise<string> {
    return this.stream.tail(taskId);
  }

  /** Calls `onUpdate` for each change after `afterId`; resolves when the task's turn ends it for good or `signal` aborts. */
  async follow(taskId: string, afterId: string, signal: AbortSignal, onUpdate: () => void): Promise<void> {
    try {
      for await (const { event } of this.stream.read(taskId, { afterId, signal })) if (changesTask(event)) onUpdate();
    } catch (error) {
      if (!signal.aborted)
        this.logger.warn(
          { taskId, err: (error as Error).message },
          'stopped following a task for MCP resource updates',
        );
    }
  }

  /** Follows the task from now on for `onUpdate` until the returned function is called; one reader per task however many listen. */
  shared(taskId: string, onUpdate: () => void): () => void {
    let entry = this.followed.get(taskId);
    if (!entry) {
      const created = (entry = { listeners: new Set<() => void>(), stop: new AbortController() });
      this.followed.set(taskId, created);
      void this.position(taskId)
        .then((tail) =>
          this.follow(taskId, tail, created.stop.signal, () => created.listeners.forEach((listener) => listener())),
        )
        .catch((error: Error) =>
          this.logger.warn({ taskId, err: error.message }, 'could not follow a task for MCP resource updates'),
        )
        .finally(() => {
          if (this.followed.get(taskId) === created) this.followed.delete(taskId);
        });
    }
    const listeners = entry.listeners;
    const stop = entry.stop;
    const listener = () => onUpdate();
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) {
        stop.abort();
        if (this.followed.get(taskId)?.stop === stop) this.followed.delete(taskId);
      }
    };
  }
}
