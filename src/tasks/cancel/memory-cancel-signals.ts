import { CANCEL_REQUEST_TTL_SECS, type CancelSignals, type CancelWatch } from './cancel-signals.interface';
import { CancelWatchers } from './cancel-watchers';

/** Cancel signals within one process (embedded mode). */
export class MemoryCancelSignals implements CancelSignals {
  private readonly requested = new Map<string, NodeJS.Timeout>();
  private readonly watchers = new CancelWatchers();

  async request(taskId: string): Promise<void> {
    clearTimeout(this.requested.get(taskId));
    const expiry = setTimeout(() => this.requested.delete(taskId), CANCEL_REQUEST_TTL_SECS * 1000).unref();
    this.requested.set(taskId, expiry);
    this.watchers.abort(taskId);
  }

  async isRequested(taskId: string): Promise<boolean> {
    return this.requested.has(taskId);
  }

  async watch(taskId: string): Promise<CancelWatch> {
    const watch = this.watchers.add(taskId);
    if (this.requested.has(taskId)) this.watchers.abort(taskId);
    return watch;
  }

  async forget(taskIds: string[]): Promise<void> {
    for (const taskId of taskIds) {
      clearTimeout(this.requested.get(taskId));
      this.requested.delete(taskId);
    }
  }
}
