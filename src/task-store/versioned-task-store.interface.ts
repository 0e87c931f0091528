import type { Task } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { TaskStore } from './task-store.interface';

/** A task with the version its store gave it; every write of the task yields a higher version. */
export interface VersionedTask {
  task: Task;
  version: number;
  /** The agent the task was first stored with; none for tasks stored before agents were recorded. */
  agent?: string;
}

export interface VersionedTaskWrite extends VersionedTask {
  written: boolean;
}

/**
 * A TaskStore that tells which version each read and write saw, so a cache in front of it can order
 * snapshots and never replace a newer one with an older one.
 */
export interface VersionedTaskStore extends TaskStore {
  /** The task in the call's scope, whichever agent's: `load` leaves out what the call's endpoint may not read. */
  loadVersioned(taskId: string, context: ServerCallContext): Promise<VersionedTask | undefined>;
  saveVersioned(task: Task, context: ServerCallContext): Promise<VersionedTask>;
  saveUnlessEndedVersioned(task: Task, context: ServerCallContext): Promise<VersionedTaskWrite>;
  saveUnlessTurnRecordedVersioned(
    task: Task,
    messageId: string,
    context: ServerCallContext,
  ): Promise<VersionedTaskWrite>;
}
