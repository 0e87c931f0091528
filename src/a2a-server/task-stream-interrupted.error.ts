import { A2AError } from '@a2a-js/sdk/errors';
import { RETRY_AFTER_SECS } from './service-unavailable.error';

/**
 * A stream or blocking call that stopped following its task before the turn ended: the task's event
 * stream could not be read, or this replica is shutting down (ServerShuttingDownError). The task
 * goes on; the client finds it again with GetTask or SubscribeToTask. Clients see it as the
 * protocol's internal error (JSON-RPC -32603, HTTP+JSON 500) with this message, which names the
 * task, and the task id in the error info's metadata (v1.0).
 */
export class TaskStreamInterruptedError extends A2AError {
  override readonly reason = 'TASK_STREAM_INTERRUPTED';

  constructor(
    readonly taskId: string,
    why: string,
    cause?: unknown,
    metadata: Record<string, string> = {},
  ) {
    super({
      message: `Stopped following task ${taskId} before its turn ended: ${why}. The task goes on: get it (GetTask) or subscribe to it again (SubscribeToTask).`,
      cause,
      metadata: { taskId, ...metadata },
    });
  }
}

/**
 * A call this replica stopped following because it is shutting down, past its drain: a refusal like
 * a store outage's (ServiceUnavailableError), answered HTTP 503 with `Retry-After` (JSON-RPC still
 * -32603; the SDK's HTTP+JSON binding reads `transport` and `statusCode`), so that clients and load
 * balancers treat it as this replica being unavailable, not as a failure of the task, which goes on.
 */
export class ServerShuttingDownError extends TaskStreamInterruptedError {
  readonly transport = 'rest';
  readonly statusCode = 503;

  constructor(taskId: string) {
    super(taskId, 'this server is shutting down', undefined, { retryAfterSecs: String(RETRY_AFTER_SECS) });
  }
}
