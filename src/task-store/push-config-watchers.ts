import { ByTask } from './by-task';
import type { PushConfigWatch } from './push-config-changes.interface';

/** The local side of push config changes: this process's watches, by task. */
export class PushConfigWatchers {
  private readonly watches = new ByTask<{ changed: boolean }>();

  add(taskId: string): PushConfigWatch {
    const state = { changed: false };
    return {
      takeChanged: () => {
        const changed = state.changed;
        state.changed = false;
        return changed;
      },
      dispose: this.watches.add(taskId, state),
    };
  }

  changed(taskId: string): void {
    for (const state of this.watches.of(taskId)) state.changed = true;
  }

  /** Every watch counts as changed: announcements may have been missed. */
  allChanged(): void {
    for (const taskId of this.watches.taskIds()) this.changed(taskId);
  }
}
