export const CANCEL_SIGNALS = Symbol('CANCEL_SIGNALS');

export interface CancelWatch {
  /** Aborts when a cancel is requested for the task, from this process or any other. */
  signal: AbortSignal;
  dispose(): void;
}

/** Carries "cancel task X" from the replica that received the request to the one running the turn. */
export interface CancelSignals {
  request(taskId: string): Promise<void>;
  isRequested(taskId: string): Promise<boolean>;
  watch(taskId: string): Promise<CancelWatch>;
}
