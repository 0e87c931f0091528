import type { TaskActivityEntry, TaskActivityStore } from './task-activity.interface';

/** Task activity within one process (embedded mode). */
export class MemoryTaskActivityStore implements TaskActivityStore {
  private readonly entries = new Map<string, TaskActivityEntry[]>();

  async append(taskId: string, entry: TaskActivityEntry): Promise<void> {
    const entries = this.entries.get(taskId) ?? [];
    entries.push(structuredClone(entry));
    this.entries.set(taskId, entries);
  }

  async list(taskId: string): Promise<TaskActivityEntry[]> {
    return structuredClone(this.entries.get(taskId) ?? []);
  }

  async remove(taskIds: string[]): Promise<void> {
    for (const taskId of taskIds) this.entries.delete(taskId);
  }
}
