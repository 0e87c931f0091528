import { A2AError } from '@a2a-js/sdk/errors';

/**
 * A stream or blocking call that stopped following its task before the turn ended: the task's event
 * stream could not be read, or this replica is shutting down. The task goes on; the client finds it
 * again with GetTask or SubscribeToTask. Clients see it as the protocol's internal error (JSON-RPC
 * -32603, HTTP+JSON 500) with this message, which names the task, and the task id in the error
 * info's metadata (v1.0).
 */
export class TaskStreamInterruptedError extends A2AError {
  override readonly reason = 'TASK_STREAM_INTERRUPTED';

  constructor(
    readonly taskId: string,
    why: string,
    cause?: unknown,
  ) {
    super({
      message: `Stopped following task ${taskId} before its turn ended: ${why}. The task goes on: get it (GetTask) or subscribe to it again (SubscribeToTask).`,
      cause,
      metadata: { taskId },
    });
  }
}
