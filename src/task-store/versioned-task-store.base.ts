import type { Task } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { VersionedTask } from './versioned-task-store.interface';

/** Derives the SDK-facing reads and writes (load, save, saveUnlessEnded) from their versioned forms. */
export abstract class VersionedTaskStoreBase {
  abstract loadVersioned(taskId: string, context: ServerCallContext): Promise<VersionedTask | undefined>;
  abstract saveVersioned(task: Task, context: ServerCallContext): Promise<VersionedTask>;
  abstract saveUnlessEndedVersioned(task: Task, context: ServerCallContext): Promise<VersionedTask>;

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    return (await this.loadVersioned(taskId, context))?.task;
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    await this.saveVersioned(task, context);
  }

  async saveUnlessEnded(task: Task, context: ServerCallContext): Promise<Task> {
    return (await this.saveUnlessEndedVersioned(task, context)).task;
  }
}
