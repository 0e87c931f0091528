import type { TaskPushNotificationConfig } from '@a2a-js/sdk';
import type { PushNotificationStore, ServerCallContext, StoredPushNotificationConfig } from '@a2a-js/sdk/server';
import type { PushConfigChanges } from './push-config-changes.interface';

/**
 * A push config store that announces every change it makes once it is stored, so that a turn
 * running on a worker reads its task's webhooks again (PushConfigChanges).
 */
export class AnnouncingPushConfigStore implements PushNotificationStore {
  readonly loadWithMetadata?: (taskId: string, context: ServerCallContext) => Promise<StoredPushNotificationConfig[]>;

  constructor(
    private readonly inner: PushNotificationStore,
    private readonly changes: PushConfigChanges,
  ) {
    this.loadWithMetadata = inner.loadWithMetadata?.bind(inner);
  }

  async save(taskId: string, context: ServerCallContext, config: TaskPushNotificationConfig): Promise<void> {
    await this.inner.save(taskId, context, config);
    await this.changes.announce(taskId);
  }

  async delete(taskId: string, context: ServerCallContext, configId?: string): Promise<void> {
    await this.inner.delete(taskId, context, configId);
    await this.changes.announce(taskId);
  }

  load(taskId: string, context: ServerCallContext): Promise<TaskPushNotificationConfig[]> {
    return this.inner.load(taskId, context);
  }
}
