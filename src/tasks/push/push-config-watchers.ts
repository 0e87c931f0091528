import { ByTask } from '../by-task';
import type { PushConfigWatch } from './push-config-changes.interface';

/** The local side of push config changes: this process's watches, by task. */
export class PushConfigWatchers {
  private readonly watches = new ByTask<{ changed: boolean }>();
  /** Announcements may be missed (the subscriber is away): every watch counts as changed. */
  private missing = false;

  add(taskId: string): PushConfigWatch {
    const state = { changed: false };
    return {
      takeChanged: () => {
        const changed = state.changed || this.missing;
        state.changed = false;
        return changed;
      },
      dispose: this.watches.add(taskId, state),
    };
  }

  changed(taskId: string): void {
    for (const state of this.watches.of(taskId)) state.changed = true;
  }

  /** Announcements are missed from now on, until `resumed`. */
  missed(): void {
    this.missing = true;
  }

  /** Announcements arrive again; those missed meanwhile count as changes to every watch. */
  resumed(): void {
    this.missing = false;
    for (const taskId of this.watches.taskIds()) this.changed(taskId);
  }
}
