/** The SDK's `PushNotificationStore` that callers register webhooks with: each change is announced to the task's running turn. */
export const PUSH_CONFIGS = Symbol('PUSH_CONFIGS');
