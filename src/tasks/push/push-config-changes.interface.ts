export const PUSH_CONFIG_CHANGES = Symbol('PUSH_CONFIG_CHANGES');

export interface PushConfigWatch {
  /** Whether a config of the task was set or deleted since the watch began or since the last call. */
  takeChanged(): boolean;
  dispose(): void;
}

/**
 * Carries "task X's webhooks changed" from the replica where a push config was set or deleted to the
 * worker running X's turn, which then reads them again instead of reading them for every batch.
 */
export interface PushConfigChanges {
  announce(taskId: string): Promise<void>;
  /** Sees every change announced after it resolves. */
  watch(taskId: string): Promise<PushConfigWatch>;
}
