import type { StreamResponse, Task } from '@a2a-js/sdk';
import type { PushConfigChanges, PushConfigWatch } from '../../task-store/push-config-changes.interface';
import type { PushTargets } from './push-notifier.service';

/**
 * A turn's webhooks: read at its first batch of events, and again only after a change to them is
 * announced (a config set or deleted mid-turn), not for every batch. The watch begins before the
 * first read, so a config stored after that read is announced to it.
 */
export class TurnWebhooks {
  private watch?: PushConfigWatch;
  private targets?: PushTargets;

  constructor(
    private readonly taskId: string,
    private readonly changes: PushConfigChanges,
    private readonly read: () => Promise<PushTargets>,
    private readonly deliver: (targets: PushTargets, events: StreamResponse[], task: Task) => Promise<void>,
  ) {}

  async notify(events: StreamResponse[], task: Task): Promise<void> {
    this.watch ??= await this.changes.watch(this.taskId);
    if (this.watch.takeChanged()) this.targets = undefined;
    this.targets ??= await this.read();
    await this.deliver(this.targets, events, task);
  }

  /** Stops watching; a later notify watches and reads again. */
  close(): void {
    this.watch?.dispose();
    this.watch = this.targets = undefined;
  }
}
