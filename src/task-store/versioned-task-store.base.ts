import type { Task } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { readableBy } from './task-agent';
import type { TaskWrite } from './task-store.interface';
import type { VersionedTask, VersionedTaskWrite } from './versioned-task-store.interface';

/** Derives the SDK-facing reads and writes (load, save, saveUnlessEnded, saveUnlessTurnRecorded) from their versioned forms. */
export abstract class VersionedTaskStoreBase {
  abstract loadVersioned(taskId: string, context: ServerCallContext): Promise<VersionedTask | undefined>;
  abstract saveVersioned(task: Task, context: ServerCallContext): Promise<VersionedTask>;
  abstract saveUnlessEndedVersioned(task: Task, context: ServerCallContext): Promise<VersionedTaskWrite>;
  abstract saveUnlessTurnRecordedVersioned(
    task: Task,
    messageId: string,
    context: ServerCallContext,
  ): Promise<VersionedTaskWrite>;

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    return readableTask(await this.loadVersioned(taskId, context), context);
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    await this.saveVersioned(task, context);
  }

  async saveUnlessEnded(task: Task, context: ServerCallContext): Promise<TaskWrite> {
    return taskWrite(await this.saveUnlessEndedVersioned(task, context));
  }

  async saveUnlessTurnRecorded(task: Task, messageId: string, context: ServerCallContext): Promise<TaskWrite> {
    return taskWrite(await this.saveUnlessTurnRecordedVersioned(task, messageId, context));
  }
}

/** The task of a versioned read as the call in `context` may see it: undefined when its endpoint serves another agent (readableBy). */
export function readableTask(loaded: VersionedTask | undefined, context: ServerCallContext): Task | undefined {
  return loaded && readableBy(loaded.agent, context) ? loaded.task : undefined;
}

/** A versioned write as the SDK-facing interface tells it. */
export function taskWrite({ task, written }: VersionedTaskWrite): TaskWrite {
  return { task, written };
}
