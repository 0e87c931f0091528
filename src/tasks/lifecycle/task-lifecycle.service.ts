import { RequestContext, ServerCallContext } from '@a2a-js/sdk/server';
import { StreamResponse, Task, TaskState } from '@a2a-js/sdk';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { SwitchboardConfig } from '../../config/config.schema';
import { MetricsService } from '../../metrics/metrics.service';
import { taskChangeOf } from '../events/task-change';
import { TASK_EVENT_STREAM, TaskEventStream } from '../events/task-event-stream.interface';
import { TASK_STORE, TaskStore, TaskWrite } from '../../task-store/task-store.interface';
import { PushNotifier } from '../push/push-notifier.service';
import { submittedTask, TurnPublisher } from './turn-publisher';
import { TurnNotRecordedError } from './turn-not-recorded.error';
import { TurnRecorder } from './turn-recorder';
import { countedStoreCall, StoreRetryPolicy } from './store-retry';

/** Waits between tries of a failed write: from 200 ms, doubling, up to 5 s. */
const WRITE_BACKOFF = { baseMs: 200, maxMs: 5_000 };
/** Writes made while a client waits for the answer (submitting a task, a cancel) fail at once: the client may retry. */
const NO_RETRY: StoreRetryPolicy = { ...WRITE_BACKOFF, deadlineMs: 0 };

export interface TurnOptions {
  /** The task's first event of this turn was already recorded (by the API). */
  announced?: boolean;
  /**
   * Nothing of the task was recorded before this turn (a new task's first attempt, this its
   * request): it is not read. Its first write is tried once: a store that cannot take it fails the
   * turn at once (TurnNotRecordedError, `neverStored`), and the send is refused. Should a submit of
   * the API's have landed first (a blocking send past its deadline), the write keeps what the store
   * holds.
   */
  unstored?: RequestContext;
  /**
   * With `unstored`: the task is written as submitted before the turn runs, for an agent that acts
   * outside its task, so that it never acts on a message whose task could not be stored.
   */
  storeBeforeRun?: boolean;
  /**
   * Given when the task has no webhooks: until when (ms since the epoch) no client can know its id
   * but from this turn's events, so none can be set before that or the turn's first event: they are
   * not read unless one is set meanwhile.
   */
  idUnknownUntil?: number;
}

/**
 * The only writer of task state, on the API and on workers alike: it submits a send's task, records
 * a turn's events (TurnRecorder), cancels, and fails a task left without a turn. Every write is
 * conditional (TaskStore's `saveUnlessEnded`, `saveUnlessTurnRecorded`), so no writer undoes
 * another's: an ended task is never rewritten, and a submit never moves a turn's task backwards.
 */
@Injectable()
export class TaskLifecycle {
  private readonly logger = new Logger(TaskLifecycle.name);
  /** How a turn on a worker tries failed writes again. */
  private readonly turnRetry: StoreRetryPolicy;
  /** How often a send waiting on its queued turn checks that the turn is still queued: the orphaned-task sweep's period. */
  readonly lostTurnCheckMs: number;

  constructor(
    @Inject(TASK_STORE) private readonly store: TaskStore,
    @Inject(TASK_EVENT_STREAM) private readonly stream: TaskEventStream,
    private readonly push: PushNotifier,
    private readonly metrics: MetricsService,
    config: ConfigService<SwitchboardConfig, true>,
  ) {
    const tasks = config.get('tasks', { infer: true });
    this.turnRetry = { ...WRITE_BACKOFF, deadlineMs: tasks.write_retry_secs * 1000 };
    this.lostTurnCheckMs = tasks.orphan_sweep_secs * 1000;
  }

  /**
   * Records a send's task as submitted, its message last in its history, unless the task ended or
   * that message's turn is recorded already (its worker got there first): a submit racing with its
   * turn never overwrites it. Returns what the store holds, and whether this submit wrote it.
   */
  async submit(requestContext: RequestContext): Promise<TaskWrite> {
    return this.store.saveUnlessTurnRecorded(
      submittedTask(requestContext),
      requestContext.userMessage.messageId,
      requestContext.context,
    );
  }

  /**
   * Puts a task this request submitted on its stream and to its webhooks. Only before its turn is
   * queued: no worker's event may precede it, or stream readers would see the task go backwards.
   */
  async announce({ taskId, context }: RequestContext, submitted: Task): Promise<void> {
    const events: StreamResponse[] = [{ payload: { $case: 'task', value: submitted } }];
    await this.stream.publish(taskId, events, { close: false, change: taskChangeOf(submitted, context) });
    await this.push.notifyAll(taskId, context, events, submitted).catch((error: Error) => {
      this.logger.error({ taskId, err: error.message }, 'webhook deliveries of task events could not be queued');
    });
  }

  /**
   * A recorder for a turn running on a worker, starting from the task as stored: its reads and
   * writes are tried again while the stores are unreachable, up to `tasks.write_retry_secs`, then
   * fail with TurnNotRecordedError.
   */
  async recordTurn(
    taskId: string,
    context: ServerCallContext,
    { announced = false, unstored, storeBeforeRun, idUnknownUntil }: TurnOptions = {},
  ): Promise<TurnRecorder> {
    const existing = !unstored
      ? await this.loadForTurn(taskId, context)
      : storeBeforeRun
        ? await this.storeFirst(unstored)
        : undefined;
    const webhooks =
      idUnknownUntil === undefined
        ? this.push.forTurn(taskId, context)
        : await this.push.forTurnWithoutWebhooks(taskId, context, idUnknownUntil);
    return new TurnRecorder(
      { store: this.store, stream: this.stream, webhooks, writeRetry: this.turnRetry, metrics: this.metrics },
      taskId,
      context,
      existing,
      announced,
    );
  }

  /** Marks a task canceled (stream and webhooks too), unless it ended meanwhile. */
  cancel(task: Task, context: ServerCallContext): Promise<void> {
    return this.end(task, context, TaskState.TASK_STATE_CANCELED, 'Task canceled.');
  }

  /** Marks a task failed with `text` (stream and webhooks too), unless it ended meanwhile: a task whose turn cannot run. */
  fail(task: Task, context: ServerCallContext, text: string): Promise<void> {
    return this.end(task, context, TaskState.TASK_STATE_FAILED, text);
  }

  /**
   * Records a send's task failed with `text` when its queued turn was lost before it began (Redis
   * lost its data): submitted and announced first if it was not recorded yet, so that the send and
   * its stream's readers get the task, then failed. A task its turn recorded (the turn ran) is kept
   * as it is.
   */
  async failUnrun(requestContext: RequestContext, text: string): Promise<void> {
    const write = await this.submit(requestContext);
    if (write.written) await this.announce(requestContext, write.task);
    else if (write.task.status?.state !== TaskState.TASK_STATE_SUBMITTED) return;
    await this.fail(write.task, requestContext.context, text);
  }

  /**
   * Tells the task's stream that its turn failed, writing nothing (the store is what failed): see
   * TurnRecorder.abandon. `recorder` is the turn's, when it got one.
   */
  abandon(requestContext: RequestContext, how: { neverStored: boolean }, recorder?: TurnRecorder): Promise<void> {
    return (recorder ?? this.recorder(requestContext.taskId, requestContext.context, undefined)).abandon(
      requestContext,
      how,
    );
  }

  private async end(task: Task, context: ServerCallContext, state: TaskState, text: string): Promise<void> {
    const recorder = this.recorder(task.id, context, task);
    new TurnPublisher(recorder, { taskId: task.id, contextId: task.contextId }).status(state, text);
    await recorder.settled();
  }

  private async storeFirst(requestContext: RequestContext): Promise<Task> {
    const submit = () => this.submit(requestContext);
    const write = await countedStoreCall(submit, NO_RETRY, this.metrics, 'task_save', () => undefined).catch(
      (error: unknown) => {
        throw new TurnNotRecordedError(requestContext.taskId, error, { neverStored: true });
      },
    );
    return write.task;
  }

  private loadForTurn(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const load = () => this.store.load(taskId, context);
    return countedStoreCall(load, this.turnRetry, this.metrics, 'task_load', (error, failures, delayMs) => {
      this.logger.warn(
        { taskId, failures, retryInMs: delayMs, err: (error as Error).message },
        'task read failed; retrying',
      );
    }).catch((error: unknown) => {
      throw new TurnNotRecordedError(taskId, error);
    });
  }

  /** A recorder of one-off events (an end, an abandon), written once. */
  private recorder(taskId: string, context: ServerCallContext, existing: Task | undefined): TurnRecorder {
    const webhooks = this.push.forEvents(taskId, context);
    return new TurnRecorder(
      { store: this.store, stream: this.stream, webhooks, writeRetry: NO_RETRY, metrics: this.metrics },
      taskId,
      context,
      existing,
    );
  }
}
