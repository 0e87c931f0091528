import { ByTask } from '../by-task';
import type { CancelWatch } from './cancel-signals.interface';

/** The local side of cancel signals: the AbortControllers of this process's watchers, by task. */
export class CancelWatchers {
  private readonly controllers = new ByTask<AbortController>();

  add(taskId: string): CancelWatch {
    const controller = new AbortController();
    return { signal: controller.signal, dispose: this.controllers.add(taskId, controller) };
  }

  abort(taskId: string): void {
    for (const controller of this.controllers.of(taskId)) controller.abort();
  }

  taskIds(): string[] {
    return this.controllers.taskIds();
  }
}
