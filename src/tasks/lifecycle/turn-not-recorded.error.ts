import type { Task } from '@a2a-js/sdk';

/**
 * What the stream of a turn that failed before its task was ever stored is told: the API answers a
 * send waiting on it with a retryable error naming no task, as no task of that id exists.
 */
export const NOT_STORED_TEXT = 'The task could not be stored while its store was unavailable; send the message again.';
/** What a client is told when a turn's task or events could not be stored. */
export const NOT_RECORDED_TEXT = 'The task could not be saved while its store was unavailable; send the message again.';

/**
 * Where the failed status of a turn whose task was never stored says so (TurnRecorder.abandon): in
 * the status event's metadata, which the SDK merges into the task's, so the request handler reads
 * it from the task a send is answered with (wasNeverStored).
 */
export const NEVER_STORED_METADATA_KEY = 'switchboard/never-stored';

/** Whether `task` is one its turn failed before it was ever stored: no task of its id exists. */
export function wasNeverStored(task: Task): boolean {
  return task.metadata?.[NEVER_STORED_METADATA_KEY] === true;
}

/** A turn's task or events could not be written (its store stayed unreachable past the retry deadline): the turn fails. */
export class TurnNotRecordedError extends Error {
  /** Nothing of the task was ever stored: no task of its id exists. */
  readonly neverStored: boolean;

  constructor(
    readonly taskId: string,
    cause: unknown,
    { neverStored = false }: { neverStored?: boolean } = {},
  ) {
    super(`Task ${taskId}: the turn could not be recorded: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'TurnNotRecordedError';
    this.neverStored = neverStored;
  }
}
