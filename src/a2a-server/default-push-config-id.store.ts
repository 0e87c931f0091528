import type { TaskPushNotificationConfig } from '@a2a-js/sdk';
import type { PushNotificationStore, ServerCallContext } from '@a2a-js/sdk/server';

/**
 * The push config store as the A2A handler uses it: a config saved without an id, by a set or inline
 * in a send, is the task's default one, whose id is the task id. v0.3 clients get it back by the task
 * id alone (their config id is optional), as the v0.3 Python SDK stores it; a delete without an id
 * already takes the task id.
 */
export class DefaultPushConfigIdStore implements PushNotificationStore {
  constructor(private readonly store: PushNotificationStore) {}

  save(taskId: string, context: ServerCallContext, config: TaskPushNotificationConfig): Promise<void> {
    // In place, as the SDK reads the assigned id back from the object it passed.
    if (!config.id) config.id = taskId;
    return this.store.save(taskId, context, config);
  }

  load(taskId: string, context: ServerCallContext): Promise<TaskPushNotificationConfig[]> {
    return this.store.load(taskId, context);
  }

  delete(taskId: string, context: ServerCallContext, configId?: string): Promise<void> {
    return this.store.delete(taskId, context, configId);
  }
}
