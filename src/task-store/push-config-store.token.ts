/** Provides the SDK's `PushNotificationStore` interface, backed by Postgres or memory. */
export const PUSH_CONFIG_STORE = Symbol('PUSH_CONFIG_STORE');
