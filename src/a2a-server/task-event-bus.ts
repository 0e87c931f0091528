import { type Task, TaskState, type TaskStatus } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutionEvent,
  DefaultExecutionEventBus,
  type EventListener,
  type ExecutionEventName,
  type FinishedListener,
} from '@a2a-js/sdk/server';
import { Logger } from '@nestjs/common';
import { type TaskEventFeed, toAgentEvent } from '../tasks';
import { TERMINAL_TASK_STATES } from '../common/task-states';
import { TaskStreamInterruptedError } from './task-stream-interrupted.error';

const TURN_ENDING_STATES: readonly TaskState[] = [...TERMINAL_TASK_STATES, TaskState.TASK_STATE_INPUT_REQUIRED];
/** The abort reason of a bus that stopped; one shared value, as `abort()` without one builds a DOMException each time. */
const STOPPED = new Error('task event bus stopped');

/**
 * The SDK's event bus, fed from the task's shared event stream: whichever process runs the turn,
 * its events reach this replica's listeners. Reading starts at `position` (the stream's end for a
 * turn about to be enqueued, or after the events a subscriber was shown as a snapshot) and stops when
 * the turn ends or the last listener leaves, or at once when the turn had ended before. A bus whose
 * stream cannot be read, or that is ended before its turn, is interrupted: its owner is told why
 * before the listeners finish, so that the request it serves ends with an error rather than as if
 * the turn were over. (A send's bus whose start cannot be known just ends: the turn is queued only
 * once it is, so the send fails by itself and no task goes on.)
 *
 * A blocking send's bus may be given `storedAnswer` (where the task store is in this process): it
 * holds the turn's events back, and when the turn ends passes on the task as the turn stored it, as
 * one `task` event. The request's ResultManager then folds one event instead of every event of the
 * turn, each of which the SDK copies whole. The held events are passed on as they are when the
 * stored task is not the one the turn ended with (a turn that could not store it, another turn
 * since), when the bus ends before the turn (past a blocking send's deadline the answer is the task
 * as far as the bus saw it), and from a request for authorization on, which the SDK answers at once.
 */
export class TaskEventBus extends DefaultExecutionEventBus {
  private readonly logger = new Logger(TaskEventBus.name);
  private readonly abort = new AbortController();
  private stopped = false;
  /** A read of the stream is under way: stopping must abort it. */
  private pumping = false;
  private liveListeners = 0;
  private reading = false;
  private readonly position: Promise<string | undefined>;
  private locate?: (position: Promise<string>) => void;
  /** A new task's stream, read from its start: what it holds yet is read with what comes. */
  private fresh = false;
  private sawEvent = false;
  /** Told once, when the bus reads its turn's first event or stops (`whenTurnBegun`). */
  private turnAwaited?: () => void;
  /** The events held back for a blocking send's answer; undefined once they are passed on, or when none are held. */
  private held?: AgentExecutionEvent[];

  constructor(
    private readonly stream: TaskEventFeed,
    readonly taskId: string,
    /**
     * Resolves to the stream position after which this bus's events lie; undefined when its turn has
     * already ended. A send's bus is given none: its executor tells it (beginTurn).
     */
    position: Promise<string | undefined> | undefined,
    /** What the bus follows: a send's turn, about to be queued, or a turn under way (a resubscribe). */
    private readonly follows: 'send' | 'turn',
    private readonly onStop: () => void,
    private readonly onInterrupt: (error: TaskStreamInterruptedError) => void,
    /** A blocking send's: reads the task as stored, to answer with it when the turn ends. */
    private readonly storedAnswer?: () => Promise<Task | undefined>,
  ) {
    super();
    this.position = position ?? new Promise<string>((resolve) => (this.locate = resolve));
    if (storedAnswer) this.held = [];
  }

  /** Calls `begun` once the bus has read its turn's first event or stopped: at once if it has. */
  whenTurnBegun(begun: () => void): void {
    if (!this.stopped && !this.sawEvent) this.turnAwaited = begun;
    else begun();
  }

  private turnNoLongerAwaited(): void {
    const begun = this.turnAwaited;
    this.turnAwaited = undefined;
    begun?.();
  }

  /**
   * A send's bus, told by its executor whether the send starts its task: its turn begins at the
   * start of a new task's stream (its id is fresh, so the stream holds nothing yet and is not read),
   * at the end of an existing task's. Resolves once that position is known.
   */
  async beginTurn(newTask: boolean): Promise<void> {
    this.fresh = newTask;
    this.locate?.(newTask ? Promise.resolve(this.stream.start) : this.stream.tail(this.taskId));
    this.locate = undefined;
    await this.position;
  }

  override on(eventName: 'event', listener: EventListener): this;
  override on(eventName: 'finished', listener: FinishedListener): this;
  override on(eventName: ExecutionEventName, listener: EventListener & FinishedListener): this {
    super.on(eventName as 'event', listener);
    if (eventName === 'event') this.liveListeners++;
    if (!this.reading) this.start();
    return this;
  }

  override off(eventName: 'event', listener: EventListener): this;
  override off(eventName: 'finished', listener: FinishedListener): this;
  override off(eventName: ExecutionEventName, listener: EventListener & FinishedListener): this {
    super.off(eventName as 'event', listener);
    if (eventName === 'event' && --this.liveListeners <= 0) this.stop();
    return this;
  }

  /** Stops reading, without a word to the listeners (they have left, or finish otherwise). */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    // Aborting costs an event dispatch: a bus whose read ended with its turn has nothing to abort.
    if (this.pumping) this.abort.abort(STOPPED);
    this.turnNoLongerAwaited();
    this.onStop();
  }

  /** Ends the bus before its turn: the listeners finish, and their request fails with `error`. */
  interrupt(error: TaskStreamInterruptedError): void {
    if (this.stopped) return;
    this.onInterrupt(error);
    this.end();
  }

  /** Ends the bus: the listeners finish and it stops reading. */
  end(): void {
    if (this.stopped) return;
    this.passOnHeld();
    this.finished();
    this.stop();
  }

  private start(): void {
    this.reading = true;
    this.position.then(
      (afterId) =>
        afterId === undefined
          ? this.end()
          : this.pump(afterId).then(
              () => this.end(),
              (error: unknown) => this.readFailed(error),
            ),
      (error: unknown) => (this.follows === 'send' ? this.end() : this.readFailed(error)),
    );
  }

  private readFailed(error: unknown): void {
    if (this.stopped) return;
    this.logger.warn({ taskId: this.taskId, err: (error as Error).message }, 'task event stream read failed');
    this.interrupt(new TaskStreamInterruptedError(this.taskId, 'its event stream is unavailable', error));
  }

  private async pump(afterId: string): Promise<void> {
    if (this.stopped) return;
    this.pumping = true;
    try {
      for await (const { event } of this.stream.read(this.taskId, {
        afterId,
        signal: this.abort.signal,
        fresh: this.fresh,
      })) {
        const agentEvent = toAgentEvent(event);
        if (!agentEvent) continue;
        if (!this.sawEvent) {
          this.sawEvent = true;
          this.turnNoLongerAwaited();
        }
        if (this.held && !asksForAuth(agentEvent)) {
          this.held.push(agentEvent);
          if (!endsTurn(agentEvent)) continue;
          return await this.answerFromStore(agentEvent);
        }
        this.passOnHeld();
        this.publish(agentEvent);
        if (endsTurn(agentEvent)) return;
      }
    } finally {
      this.pumping = false;
    }
  }

  /** The turn ended with `last`: the held events are replaced by the task as stored, if it is the one the turn ended with. */
  private async answerFromStore(last: AgentExecutionEvent): Promise<void> {
    const status = last.kind === 'statusUpdate' ? last.data.status : undefined;
    const stored = status && (await this.storedAnswer!().catch(() => undefined));
    // Ended meanwhile: what was held has been passed on.
    if (this.stopped) return;
    if (stored && sameStatus(stored.status, status)) this.held = [AgentEvent.task(stored)];
    this.passOnHeld();
  }

  private passOnHeld(): void {
    const held = this.held;
    this.held = undefined;
    for (const event of held ?? []) this.publish(event);
  }
}

/** Whether `event` is the last of its turn: a message, a terminal state or a request for input. */
export function endsTurn(event: AgentExecutionEvent): boolean {
  if (event.kind === 'message') return true;
  const state = event.kind === 'statusUpdate' ? event.data.status?.state : undefined;
  return state !== undefined && TURN_ENDING_STATES.includes(state);
}

function asksForAuth(event: AgentExecutionEvent): boolean {
  return event.kind === 'statusUpdate' && event.data.status?.state === TaskState.TASK_STATE_AUTH_REQUIRED;
}

/** Whether two statuses are the same write: a turn's status carries its own timestamp. */
function sameStatus(a: TaskStatus | undefined, b: TaskStatus): boolean {
  return a?.state === b.state && a.timestamp === b.timestamp && a.message?.messageId === b.message?.messageId;
}
