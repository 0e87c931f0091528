/**
 * What the stream of a turn that failed before its task was ever stored is told: the API answers a
 * send waiting on it with a retryable error naming no task, as no task of that id exists.
 */
export const NOT_STORED_TEXT = 'The task could not be stored while its store was unavailable; send the message again.';

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
