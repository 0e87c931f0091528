import type { CancelWatch } from './cancel-signals.interface';

/** The local side of cancel signals: the AbortControllers of this process's watchers, by task. */
export class CancelWatchers {
  private readonly byTask = new Map<string, Set<AbortController>>();

  add(taskId: string): CancelWatch {
    const controller = new AbortController();
    const watchers = this.byTask.get(taskId) ?? new Set();
    watchers.add(controller);
    this.byTask.set(taskId, watchers);
    return {
      signal: controller.signal,
      dispose: () => {
        watchers.delete(controller);
        if (watchers.size === 0 && this.byTask.get(taskId) === watchers) this.byTask.delete(taskId);
      },
    };
  }

  abort(taskId: string): void {
    for (const controller of this.byTask.get(taskId) ?? []) controller.abort();
  }

  taskIds(): string[] {
    return [...this.byTask.keys()];
  }
}
