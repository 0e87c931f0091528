/** A turn's task or events could not be written (its store stayed unreachable past the retry deadline): the turn fails. */
export class TurnNotRecordedError extends Error {
  constructor(
    readonly taskId: string,
    cause: unknown,
  ) {
    super(`Task ${taskId}: the turn could not be recorded: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'TurnNotRecordedError';
  }
}
