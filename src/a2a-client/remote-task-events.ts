import { type SendMessageRequest, type StreamResponse, type Task, type TaskState } from '@a2a-js/sdk';
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import { Logger } from '@nestjs/common';
import { abortableSleep } from '../common/abortable-sleep';
import { backoffDelayMs } from '../common/backoff';
import { INTERRUPTED_TASK_STATES, TERMINAL_TASK_STATES } from '../common/task-states';
import { ExternalAgentUnavailableError } from './a2a-client.errors';
import type { ExternalAgent } from './external-agent';
import type { A2aClientSettings } from '../config/external-agent.schema';

const logger = new Logger('RemoteTask');

/** A state after which the remote task waits for nobody: terminal, or waiting for the caller. */
export function isFinalState(state: TaskState | undefined): boolean {
  return state !== undefined && (TERMINAL_TASK_STATES.includes(state) || INTERRUPTED_TASK_STATES.includes(state));
}

/** Whether the remote conversation rests after this event: a direct message, or a final state. */
export function endsTurn({ payload }: StreamResponse): boolean {
  switch (payload?.$case) {
    case 'message':
      return true;
    case 'task':
      return isFinalState(payload.value.status?.state);
    case 'statusUpdate':
      return isFinalState(payload.value.status?.state);
    default:
      return false;
  }
}

export function remoteTaskIdOf({ payload }: StreamResponse): string | undefined {
  switch (payload?.$case) {
    case 'task':
      return payload.value.id;
    case 'statusUpdate':
    case 'artifactUpdate':
      return payload.value.taskId || undefined;
    default:
      return undefined;
  }
}

class StreamIdleError extends Error {
  constructor(idleMs: number) {
    super(`no event for ${idleMs} ms`);
  }
}

/**
 * Sends a message to an external agent and yields the remote task's events until it ends or waits
 * for input. A streaming agent is read over SSE; a dropped or idle stream is resubscribed with
 * backoff, after a `GetTask` that catches up on what the drop missed. An agent that cannot stream
 * is sent the message without blocking and its task polled. Stops (throws) when `signal` aborts.
 */
export async function* sendToRemote(
  agent: ExternalAgent,
  request: SendMessageRequest,
  settings: A2aClientSettings,
  signal: AbortSignal,
): AsyncGenerator<StreamResponse> {
  const client = await agent.client();
  let taskId: string | undefined;
  if (agent.streams) {
    try {
      for await (const event of idleBounded(
        (bounded) => client.sendMessageStream(request, { signal: bounded }),
        settings.sse_idle_timeout_ms,
        signal,
      )) {
        taskId ??= remoteTaskIdOf(event);
        yield event;
        if (endsTurn(event)) return;
      }
    } catch (error) {
      if (signal.aborted || !taskId) throw failure(agent, error);
      logger.warn(
        { agent: agent.name, remoteTaskId: taskId, err: describe(error) },
        'remote task stream dropped; following the task',
      );
    }
    if (!taskId) throw new ExternalAgentUnavailableError(agent.name, 'its stream ended before naming a task');
  } else {
    const configuration = { ...request.configuration!, returnImmediately: true };
    const result = await client
      .sendMessage({ ...request, configuration }, { signal })
      .catch((error: unknown) => Promise.reject(failure(agent, error)));
    const event: StreamResponse =
      'messageId' in result
        ? { payload: { $case: 'message', value: result } }
        : { payload: { $case: 'task', value: result } };
    yield event;
    if (endsTurn(event)) return;
    taskId = (result as Task).id;
  }
  yield* followRemote(agent, taskId, settings, signal);
}

/**
 * Yields a remote task's events from now until it ends or waits for input: its snapshot, then its
 * stream (resubscribed with backoff when dropped), or its snapshots polled when the agent cannot
 * stream. What a worker that picks up a delegated task after a crash does.
 */
export async function* followRemote(
  agent: ExternalAgent,
  taskId: string,
  settings: A2aClientSettings,
  signal: AbortSignal,
): AsyncGenerator<StreamResponse> {
  let failures = 0;
  const retry = { baseMs: settings.sse_retry_base_ms, maxMs: settings.sse_retry_max_ms };
  for (;;) {
    try {
      const client = await agent.client();
      const task = await client.getTask({ id: taskId, historyLength: 0, tenant: '' }, { signal });
      const snapshot: StreamResponse = { payload: { $case: 'task', value: task } };
      yield snapshot;
      if (endsTurn(snapshot)) return;
      if (agent.streams) {
        for await (const event of idleBounded(
          (bounded) => client.resubscribeTask({ id: taskId, tenant: '' }, { signal: bounded }),
          settings.sse_idle_timeout_ms,
          signal,
        )) {
          failures = 0;
          yield event;
          if (endsTurn(event)) return;
        }
      }
    } catch (error) {
      if (signal.aborted) throw error;
      if (error instanceof TaskNotFoundError) throw failure(agent, error);
      logger.warn(
        { agent: agent.name, remoteTaskId: taskId, err: describe(error) },
        'following a remote task failed; retrying',
      );
      await abortableSleep(backoffDelayMs(failures++, retry), signal);
      continue;
    }
    await abortableSleep(agent.streams ? backoffDelayMs(failures++, retry) : settings.poll_interval_ms, signal);
  }
}

/** Runs `open` with a signal that also aborts when no item has come for `idleMs`. */
async function* idleBounded<T>(
  open: (signal: AbortSignal) => AsyncIterable<T>,
  idleMs: number,
  signal: AbortSignal,
): AsyncGenerator<T> {
  const idle = new AbortController();
  const timer = setTimeout(() => idle.abort(new StreamIdleError(idleMs)), idleMs);
  try {
    for await (const item of open(AbortSignal.any([signal, idle.signal]))) {
      timer.refresh();
      yield item;
    }
  } catch (error) {
    throw idle.signal.aborted && !signal.aborted ? idle.signal.reason : error;
  } finally {
    clearTimeout(timer);
  }
}

/** An error from a remote agent, as the turn's failure: it names the agent. */
function failure(agent: ExternalAgent, error: unknown): Error {
  if (error instanceof ExternalAgentUnavailableError) return error;
  return new ExternalAgentUnavailableError(agent.name, describe(error));
}

function describe(error: unknown): string {
  if (error instanceof TypeError && error.cause instanceof Error) return `${error.message}: ${error.cause.message}`;
  return (error as Error)?.message ?? String(error);
}
