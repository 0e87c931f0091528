import type { StreamResponse, Task } from '@a2a-js/sdk';
import type { StoredPushNotificationConfig } from '@a2a-js/sdk/server';
import type { CallerScope } from '../../queue/queue.constants';
import type { PushConfigChanges, PushConfigWatch } from './push-config-changes.interface';

/** A task's webhooks, and the scope they were registered in (where the delivery reads them again). */
export interface PushTargets {
  caller: CallerScope;
  configs: StoredPushNotificationConfig[];
}

/** Where a recorder sends its batches of events for the task's webhooks. */
export interface TaskWebhooks {
  notify(events: StreamResponse[], task: Task): Promise<void>;
  /** The recorder records no more. */
  close(): void;
}

/**
 * A turn's webhooks: read at its first batch of events, and again only after a change to them is
 * announced (a config set or deleted mid-turn), not for every batch. The watch begins before the
 * first read, so a config stored after that read is announced to it.
 */
export class TurnWebhooks implements TaskWebhooks {
  private watch?: PushConfigWatch;
  private targets?: PushTargets;
  private closed = false;

  constructor(
    private readonly taskId: string,
    private readonly changes: PushConfigChanges,
    private readonly read: () => Promise<PushTargets>,
    private readonly deliver: (targets: PushTargets, events: StreamResponse[], task: Task) => Promise<void>,
  ) {}

  /**
   * Watches from now on, taking `targets` as the webhooks until a change is announced: for a task
   * whose webhooks are known without reading them as long as the watch began before
   * `idUnknownUntil` (ms since the epoch), until when no client knows the task's id. Otherwise, or
   * when the watch cannot begin, they are read at the first batch, as for any turn.
   */
  async startWith(targets: PushTargets, idUnknownUntil: number): Promise<void> {
    const watch = await this.changes.watch(this.taskId).catch(() => undefined);
    if (!watch) return;
    this.watch = watch;
    if (Date.now() < idUnknownUntil) this.targets = targets;
  }

  async notify(events: StreamResponse[], task: Task): Promise<void> {
    if (!this.watch && !this.closed) {
      const watch = await this.changes.watch(this.taskId);
      if (this.closed) watch.dispose();
      else this.watch = watch;
    }
    if (!this.watch) return this.deliver(await this.read(), events, task);
    if (this.watch.takeChanged()) this.targets = undefined;
    this.targets ??= await this.read();
    await this.deliver(this.targets, events, task);
  }

  /** Stops watching; events notified after that (there should be none) read the webhooks each time. */
  close(): void {
    this.closed = true;
    this.watch?.dispose();
    this.watch = this.targets = undefined;
  }
}
