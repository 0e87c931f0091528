import { ExecutionEventBusManager, ServerCallContext } from '@a2a-js/sdk/server';
import { Inject, Injectable } from '@nestjs/common';
import { currentTurn, TaskEventFeed, TaskView } from '../tasks';
import { A2aCall } from './a2a-call';
import { endsTurn, TaskEventBus } from './task-event-bus';
import { TaskStreamInterruptedError } from './task-stream-interrupted.error';

/** Calls the SDK makes without a context share this key. */
const NO_CONTEXT = new ServerCallContext();

/**
 * One bus per request and task, each reading the task's shared stream from where that request
 * needs: a send reads what comes after the stream's current end, or the whole stream of a task it
 * starts (its turn is enqueued only once that position is known), a resubscribe what comes after
 * the task as the stream shows it now (its call's `snapshot`). Buses end by themselves when the turn ends, so this manager owns their settling.
 * A request whose bus was interrupted fails with the interruption (see `untilInterrupted`).
 */
@Injectable()
export class TaskEventBusManager implements ExecutionEventBusManager {
  private readonly open = new Set<TaskEventBus>();
  private allEnded?: () => void;

  private readonly stream: TaskEventFeed;

  constructor(@Inject(TaskView) private readonly tasks: Pick<TaskView, 'events' | 'get' | 'readsInProcess'>) {
    this.stream = tasks.events;
  }

  createOrGetByTaskId(taskId: string, context: ServerCallContext = NO_CONTEXT): TaskEventBus {
    return this.find(taskId, context) ?? this.create(taskId, context, undefined, 'send');
  }

  getByTaskId(taskId: string, context: ServerCallContext = NO_CONTEXT): TaskEventBus {
    return this.find(taskId, context) ?? this.follow(taskId, context);
  }

  cleanupByTaskId(taskId: string, context: ServerCallContext = NO_CONTEXT): void {
    this.find(taskId, context)?.stop();
  }

  settleByTaskId(): boolean {
    return true;
  }

  /** Ends the bus of a request that needs no more of its task's events (a non-blocking send, answered). */
  release(taskId: string, context: ServerCallContext): void {
    this.find(taskId, context)?.end();
  }

  /** Ends every bus of a request that follows its tasks no more (a blocking send past its deadline). */
  releaseAll(context: ServerCallContext): void {
    for (const bus of [...A2aCall.of(context).buses.values()]) bus.end();
  }

  /** The client of the request made in `context` has gone: its buses end, and so does any it gets later. Its turns go on. */
  abandon(context: ServerCallContext): void {
    A2aCall.of(context).abandoned = true;
    this.releaseAll(context);
  }

  /** The events of a request's stream, then the interruption of its bus if it had one. */
  async *untilInterrupted<T>(
    context: ServerCallContext,
    events: AsyncGenerator<T, void, undefined>,
  ): AsyncGenerator<T, void, undefined> {
    yield* events;
    this.throwIfInterrupted(context);
  }

  /** A request's answer, unless its bus was interrupted: then the interruption. */
  async unlessInterrupted<T>(context: ServerCallContext, answer: Promise<T>): Promise<T> {
    try {
      return await answer;
    } finally {
      this.throwIfInterrupted(context);
    }
  }

  /** Resolves when every open bus has ended (their turns ended, or their clients left), or after `ms`; true if they all did. */
  async drain(ms: number): Promise<boolean> {
    if (this.open.size === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([
      new Promise<true>((resolve) => (this.allEnded = () => resolve(true))),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
    ]);
    clearTimeout(timer);
    this.allEnded = undefined;
    return ended;
  }

  /** Interrupts every open bus: their requests end with `interruption`'s error, which names the task and says why. */
  interruptAll(interruption: (taskId: string) => TaskStreamInterruptedError): number {
    const buses = [...this.open];
    for (const bus of buses) bus.interrupt(interruption(bus.taskId));
    return buses.length;
  }

  private throwIfInterrupted(context: ServerCallContext): void {
    const { interruption } = A2aCall.of(context);
    if (interruption) throw interruption;
  }

  private find(taskId: string, context: ServerCallContext): TaskEventBus | undefined {
    return A2aCall.of(context).buses.get(taskId);
  }

  /**
   * A bus for a turn under way: the turn's events so far are folded into a snapshot of the task,
   * and the bus reads on from there, so a subscriber sees the task as it is, then only later events.
   */
  private follow(taskId: string, context: ServerCallContext): TaskEventBus {
    const turn = currentTurn(this.stream, taskId, context);
    A2aCall.of(context).snapshot = turn.then(
      ({ task }) => task,
      () => undefined,
    );
    const position = turn.then(({ end, last }) => (last && endsTurn(last) ? undefined : end));
    return this.create(taskId, context, position, 'turn');
  }

  /** A send's bus is given no `position`: its executor tells it where the turn begins (TaskEventBus.beginTurn). */
  private create(
    taskId: string,
    context: ServerCallContext,
    position: Promise<string | undefined> | undefined,
    follows: 'send' | 'turn',
  ): TaskEventBus {
    const call = A2aCall.of(context);
    const stopped = () => {
      if (call.buses.get(taskId) === bus) call.buses.delete(taskId);
      this.open.delete(bus);
      if (this.open.size === 0) this.allEnded?.();
    };
    const interrupted = (error: TaskStreamInterruptedError) => (call.interruption = error);
    // A position of undefined ends the bus as soon as it is listened to; its turn, if a send queues one, goes on.
    const start = call.abandoned ? Promise.resolve(undefined) : position;
    // Where reading the task costs no round trip, it is cheaper than the SDK's copies of every event of the turn.
    const storedAnswer =
      follows === 'send' && call.blockingSend && this.tasks.readsInProcess
        ? () => this.tasks.get(taskId, context)
        : undefined;
    const bus = new TaskEventBus(this.stream, taskId, start, follows, stopped, interrupted, storedAnswer);
    call.buses.set(taskId, bus);
    this.open.add(bus);
    return bus;
  }
}
