export const CANCEL_SIGNALS = Symbol('CANCEL_SIGNALS');

/** A cancel request is remembered this long: longer than any turn runs. */
export const CANCEL_REQUEST_TTL_SECS = 24 * 3600;

export interface CancelWatch {
  /** Aborts when a cancel is requested for the task, from this process or any other. */
  signal: AbortSignal;
  dispose(): void;
}

/** Carries "cancel task X" from the replica that received the request to the one running the turn. */
export interface CancelSignals {
  request(taskId: string): Promise<void>;
  isRequested(taskId: string): Promise<boolean>;
  /**
   * Also sees a request made before the watch began (its signal is then already aborted); that is
   * not looked for when the watch begins before `idUnknownUntil` (epoch ms), until when no client can
   * know the task's id, so that no request can precede the watch.
   */
  watch(taskId: string, options?: { idUnknownUntil?: number }): Promise<CancelWatch>;
  /** Drops the requests of tasks that are gone (evicted by retention). */
  forget(taskIds: string[]): Promise<void>;
}
