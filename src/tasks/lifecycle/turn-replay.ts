import type { Task } from '@a2a-js/sdk';
import { type AgentExecutionEvent, ResultManager, type ServerCallContext } from '@a2a-js/sdk/server';
import type { TaskEventFeed } from '../task-view';
import { toAgentEvent } from '../events/stream-events';
import { SnapshotBuffer } from './snapshot-buffer';

/** Where a replay of the current turn stopped, and the turn's last event it applied. */
export interface TurnReplay {
  /** The stream's tail when the replay began: reading after it yields only later events. */
  end: string;
  last?: AgentExecutionEvent;
  /** Whether the stream held a `task` event: a turn's stream begins with one. */
  withTask: boolean;
}

/**
 * Applies the current turn's events on the task's stream (from its `task` event up to the stream's
 * tail as it is now) to `results`, as the turn's recorder applied them. The turn's start is read
 * before the tail, so a turn beginning meanwhile is replayed whole rather than cut. Given the
 * `messageId` of the turn expected, a turn whose task does not hold that message is an earlier one:
 * nothing is replayed.
 */
export async function replayTurn(
  stream: TaskEventFeed,
  taskId: string,
  results: ResultManager,
  messageId?: string,
): Promise<TurnReplay> {
  const start = await stream.turnStart(taskId);
  const end = await stream.tail(taskId);
  if (start === end) return { end, withTask: false };
  let last: AgentExecutionEvent | undefined;
  let withTask = false;
  for await (const { id, event } of stream.read(taskId, { afterId: start })) {
    const agentEvent = toAgentEvent(event);
    if (
      agentEvent?.kind === 'task' &&
      messageId !== undefined &&
      !agentEvent.data.history.some((message) => message.messageId === messageId)
    ) {
      return { end, withTask: false };
    }
    if (agentEvent) last = agentEvent;
    withTask ||= agentEvent?.kind === 'task';
    if (agentEvent && agentEvent.kind !== 'message') await results.processEvent(agentEvent);
    if (id === end) break;
  }
  return { end, last, withTask };
}

/** The turn under way as a reader joining it sees it: the task its events so far make, and where the replay stopped. */
export interface CurrentTurn extends Pick<TurnReplay, 'end' | 'last'> {
  task: Task | undefined;
}

/** Folds the current turn's events on the task's stream into the task they make (replayTurn), for a reader that follows on from there. */
export async function currentTurn(
  stream: TaskEventFeed,
  taskId: string,
  context: ServerCallContext,
): Promise<CurrentTurn> {
  const snapshot = new SnapshotBuffer(undefined);
  const { end, last } = await replayTurn(stream, taskId, new ResultManager(snapshot, context));
  return { task: snapshot.current, end, last };
}
