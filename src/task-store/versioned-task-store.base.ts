import type { Task } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { VersionedTask } from './versioned-task-store.interface';

/** Derives the SDK-facing reads and writes (load, save, update, saveUnlessEnded) from their versioned forms. */
export abstract class VersionedTaskStoreBase {
  abstract loadVersioned(taskId: string, context: ServerCallContext): Promise<VersionedTask | undefined>;
  abstract saveVersioned(task: Task, context: ServerCallContext): Promise<VersionedTask>;
  abstract updateVersioned(taskId: string, context: ServerCallContext, mutate: (task: Task) => Task | void): Promise<VersionedTask>;
  abstract saveUnlessEndedVersioned(task: Task, context: ServerCallContext): Promise<VersionedTask>;

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    return (await this.loadVersioned(taskId, context))?.task;
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    await this.saveVersioned(task, context);
  }

  async update(taskId: string, context: ServerCallContext, mutate: (task: Task) => Task | void): Promise<Task> {
    return (await this.updateVersioned(taskId, context, mutate)).task;
  }

  async saveUnlessEnded(task: Task, context: ServerCallContext): Promise<Task> {
    return (await this.saveUnlessEndedVersioned(task, context)).task;
  }

  /** Runs an update's `mutate`, which may change the task in place or return a replacement. */
  protected mutated(current: Task, mutate: (task: Task) => Task | void): Task {
    const next = mutate(current) ?? current;
    if (next.id !== current.id) throw new Error(`update of task ${current.id} must not change its id`);
    return next;
  }
}
