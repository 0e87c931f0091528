import type { PushConfigChanges, PushConfigWatch } from './push-config-changes.interface';
import { PushConfigWatchers } from './push-config-watchers';

/** Push config changes within one process (no Redis). */
export class MemoryPushConfigChanges implements PushConfigChanges {
  private readonly watchers = new PushConfigWatchers();

  async announce(taskId: string): Promise<void> {
    this.watchers.changed(taskId);
  }

  async watch(taskId: string): Promise<PushConfigWatch> {
    return this.watchers.add(taskId);
  }
}
