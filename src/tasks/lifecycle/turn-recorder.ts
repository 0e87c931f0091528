import { type Message, type StreamResponse, Task, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutionEvent,
  DefaultExecutionEventBus,
  type RequestContext,
  ResultManager,
  type ServerCallContext,
} from '@a2a-js/sdk/server';
import { Logger } from '@nestjs/common';
import type { MetricsService, StoreOperation } from '../../metrics/metrics.service';
import { changesState, taskChangeOf } from '../events/task-change';
import type { TaskEventStream } from '../events/task-event-stream.interface';
import { INTERRUPTED_TASK_STATES, isTerminal, TERMINAL_TASK_STATES } from '../../common/task-states';
import type { TaskStore, TaskWrite } from '../../task-store/task-store.interface';
import type { TaskWebhooks } from '../push/turn-webhooks';
import { TurnPublisher } from './turn-publisher';
import { SnapshotBuffer } from './snapshot-buffer';
import {
  NEVER_STORED_METADATA_KEY,
  NOT_RECORDED_TEXT,
  NOT_STORED_TEXT,
  TurnNotRecordedError,
} from './turn-not-recorded.error';
import { replayTurn } from './turn-replay';
import { countedStoreCall, type StoreRetryPolicy } from './store-retry';
import { afterThisTick } from '../../common/after-this-tick';

/** The events `build` publishes, captured rather than recorded. */
function eventsOf(
  ids: { taskId: string; contextId: string },
  build: (publish: TurnPublisher) => void,
): AgentExecutionEvent[] {
  const events: AgentExecutionEvent[] = [];
  const capture = new DefaultExecutionEventBus();
  capture.on('event', (event) => events.push(event));
  build(new TurnPublisher(capture, ids));
  return events;
}

function completedWith(message: Message, taskId: string, contextId: string): AgentExecutionEvent {
  return AgentEvent.statusUpdate({
    taskId,
    contextId,
    status: {
      state: TaskState.TASK_STATE_COMPLETED,
      message: { ...message, taskId },
      timestamp: new Date().toISOString(),
    },
    metadata: {},
  });
}

/** A copy of a task through its wire JSON (metadata values stay shared), ten times cheaper than structuredClone on Node 20. */
function copyOf(task: Task): Task {
  return Task.fromJSON(Task.toJSON(task));
}

/** The state a stream event sets, if it is a status update. */
function stateOf(event: StreamResponse | undefined): TaskState | undefined {
  return event?.payload?.$case === 'statusUpdate' ? event.payload.value.status?.state : undefined;
}

/** A long turn's snapshot reaches the database at least this often, so other readers see progress. */
const CHECKPOINT_MS = 1_000;

export interface TurnRecorderDeps {
  store: TaskStore;
  stream: TaskEventStream;
  /** Where batches of events go for the task's webhooks: a turn's follow changes to them. */
  webhooks: TaskWebhooks;
  /** How failed writes are tried again; a deadline of 0 fails at the first failure. */
  writeRetry: StoreRetryPolicy;
  metrics: MetricsService;
}

/**
 * How the task lifecycle (TaskLifecycle) writes a task's events. Each event goes through the SDK's
 * ResultManager (the SDK's own merge rules) into a snapshot held in memory, which is saved at the
 * turn's first event, at every interrupted or terminal state and at checkpoints; then the event is
 * published on the task's stream for every replica's subscribers, and to the task's webhooks. A
 * task that reached a terminal state is never rewritten: a turn that finds it so (canceled
 * meanwhile) stops recording.
 *
 * It is the SDK's ExecutionEventBus, so executors publish to it directly; events are recorded in
 * order, in batches (those published in the same turn of the event loop, or while the previous
 * batch was being recorded), and `settled()` waits for all of them. A write that fails is tried
 * again (`writeRetry`) before the batch goes on, so nothing is published before it is saved and
 * nothing is dropped; one that still fails at the deadline fails the recorder: it records nothing
 * more, and `settled()` rejects with TurnNotRecordedError.
 */
export class TurnRecorder extends DefaultExecutionEventBus {
  private readonly logger = new Logger(TurnRecorder.name);
  private readonly buffer: SnapshotBuffer;
  private readonly results: ResultManager;
  private chain: Promise<void> = Promise.resolve();
  private readonly pending: AgentExecutionEvent[] = [];
  private failure?: TurnNotRecordedError;
  private persisted: boolean;
  private savedOnce = false;
  private lastSave = 0;
  /** Events applied to the snapshot since its last save: a checkpoint is due. */
  private unsaved = false;
  private checkpointTimer?: NodeJS.Timeout;
  /** The turn's last event, once applied: what comes after it is ignored. */
  private closing?: 'message' | TaskState;
  /** The turn's last event, once recorded. */
  private recordedEnd?: 'message' | TaskState;
  /** A `task` event of this turn is on the stream (or the API announced the task). */
  private taskStreamed: boolean;

  constructor(
    private readonly deps: TurnRecorderDeps,
    private readonly taskId: string,
    private readonly context: ServerCallContext,
    existing: Task | undefined,
    private announced = false,
  ) {
    super();
    this.persisted = existing !== undefined;
    this.taskStreamed = announced;
    if (announced) this.lastSave = Date.now();
    this.buffer = new SnapshotBuffer(existing);
    this.results = new ResultManager(this.buffer, context);
  }

  get task(): Task | undefined {
    return this.buffer.current;
  }

  /** Whether the task is in the store: it was there when the turn began, or a save of this recorder reached it. */
  get stored(): boolean {
    return this.persisted;
  }

  /** Set once a save of this recorder reached the store. */
  get saved(): boolean {
    return this.savedOnce;
  }

  /** Set once the turn's last event (a message, a terminal or an interrupted state) is recorded. */
  get ended(): boolean {
    return this.recordedEnd !== undefined;
  }

  /** How the turn ended, once recorded: a direct answer (`message`), or the state its task was left in. */
  get end(): 'message' | TaskState | undefined {
    return this.recordedEnd;
  }

  override publish(event: AgentExecutionEvent): void {
    this.pending.push(event);
    // A batch is already waiting to be recorded: this event joins it.
    if (this.pending.length > 1) return;
    // After this tick: a burst of events published together forms one batch.
    this.enqueue(() => afterThisTick().then(() => this.recordPending()));
  }

  /** Runs `step` after every step queued before it; a step that fails fails the recorder. */
  private enqueue(step: () => Promise<void>): void {
    this.chain = this.chain.then(step).catch((error: unknown) => {
      this.failure ??= error instanceof TurnNotRecordedError ? error : new TurnNotRecordedError(this.taskId, error);
    });
  }

  /**
   * For a turn run again after its worker died: brings the snapshot up to date with the events of
   * this turn (the one of message `messageId`) already on the task's stream, without publishing them
   * again: what that worker streamed after its last checkpoint. It may also have died between saving
   * a batch and streaming it: a stream without this turn's task gets the task as saved (a turn's
   * stream, and the answer built from it, begins with one), and a turn saved as ended (a terminal
   * state, or this turn's request for input) keeps what was saved and gets its end streamed if it
   * was not. Returns whether the turn is over: its task saved as ended, or no task saved and its
   * stream closed (a direct answer).
   */
  async catchUp(messageId: string): Promise<boolean> {
    // A copy: the replay below may edit the loaded snapshot in place.
    const saved = this.buffer.current && copyOf(this.buffer.current);
    const closure = await this.deps.stream.closure(this.taskId);
    // Closed by what this turn left: a direct answer (no task saved), or the final state saved (a cancel
    // too). An earlier turn's direct answer closes a stream whose task goes on.
    if (closure && (saved === undefined || (isTerminal(saved) && stateOf(closure.lastEvent) === saved.status?.state)))
      return true;
    const { withTask, last } = await replayTurn(this.deps.stream, this.taskId, this.results, messageId);
    if (!saved) return false;
    const savedThisTurn = saved.history.some((message) => message.messageId === messageId);
    const state = saved.status!.state;
    // Interrupted, with this turn's message in its history: this turn asked for input, not an earlier one.
    const ended = isTerminal(saved) || (savedThisTurn && INTERRUPTED_TASK_STATES.includes(state));
    // The store is ahead of the stream: an ended turn's content is what was saved.
    if (ended) await this.buffer.save(saved);
    if (!withTask && savedThisTurn) this.publish(AgentEvent.task(copyOf(saved)));
    if (!ended) return false;
    const endStreamed = withTask && last?.kind === 'statusUpdate' && last.data.status?.state === state;
    if (!endStreamed)
      this.publish(
        AgentEvent.statusUpdate({ taskId: saved.id, contextId: saved.contextId, status: saved.status, metadata: {} }),
      );
    return true;
  }

  /** Waits until every published event is recorded; rejects with TurnNotRecordedError if recording one failed. */
  async settled(): Promise<void> {
    await this.chain;
    if (this.failure) throw this.failure;
  }

  /**
   * After the recorder failed: tells the task's stream that the turn failed, without saving (the
   * store is what failed), so that clients waiting on the stream get an answer; the task's row is
   * settled by the orphaned-task sweep once the store is back. Best effort: the stream's store may
   * be the one that is down. A task `neverStored` (no task of its id exists) is told so in the
   * status event's metadata (NEVER_STORED_METADATA_KEY), for the request handler to refuse the send.
   */
  async abandon(requestContext: RequestContext, { neverStored }: { neverStored: boolean }): Promise<void> {
    const [announced, failed] = eventsOf(requestContext, (publish) => {
      publish.task(requestContext);
      publish.status(TaskState.TASK_STATE_FAILED, neverStored ? NOT_STORED_TEXT : NOT_RECORDED_TEXT);
    }) as [Extract<AgentExecutionEvent, { kind: 'task' }>, Extract<AgentExecutionEvent, { kind: 'statusUpdate' }>];
    if (neverStored) failed.data.metadata = { ...failed.data.metadata, [NEVER_STORED_METADATA_KEY]: true };
    const responses: StreamResponse[] = [{ payload: { $case: 'statusUpdate', value: failed.data } }];
    if (!this.taskStreamed) {
      // Clients that never saw the task get it whole, as it stands, failed.
      const task = { ...(this.buffer.current ?? announced.data), status: failed.data.status };
      responses.unshift({ payload: { $case: 'task', value: task } });
    }
    await this.deps.stream.publish(this.taskId, responses, { close: true }).catch((error: Error) => {
      this.logger.warn(
        { taskId: this.taskId, err: error.message },
        'could not tell the task stream that its turn failed',
      );
    });
  }

  /**
   * Records the events published since the last batch: each through the ResultManager, then one
   * save if any of them needs it, one append to the stream and the webhooks. A turn's events come in
   * bursts, so batches keep database and Redis round trips per turn few.
   */
  private async recordPending(): Promise<void> {
    const events = this.pending.splice(0);
    if (this.failure) {
      this.logger.warn(
        { taskId: this.taskId, events: events.length },
        'events after the turn failed to record dropped',
      );
      return;
    }
    const responses: StreamResponse[] = [];
    let mustSave = false;
    for (const event of events) {
      const applied = await this.apply(event);
      if (!applied) continue;
      responses.push(applied.response);
      mustSave ||= applied.mustSave;
    }
    if (responses.length === 0) return;
    if (mustSave && !(await this.saveSnapshot())) return;
    if (!mustSave) this.checkpointSoon();
    const ending = this.closing;
    const closes = ending === 'message' || (ending !== undefined && TERMINAL_TASK_STATES.includes(ending));
    const change =
      changesState(responses) && this.buffer.current ? taskChangeOf(this.buffer.current, this.context) : undefined;
    await this.write('event_publish', () =>
      this.deps.stream.publish(this.taskId, responses, { close: closes, change }),
    );
    this.taskStreamed ||= responses.some((response) => response.payload?.$case === 'task');
    this.recordedEnd = ending;
    if (ending !== 'message') await this.notify(responses);
    if (ending !== undefined) this.release();
  }

  /** Stops following changes to the task's webhooks: the turn is over, whether or not it ended well. */
  release(): void {
    clearTimeout(this.checkpointTimer);
    this.deps.webhooks.close();
  }

  /**
   * Saves the snapshot; returns false when the task ended elsewhere meanwhile (canceled), and the
   * turn then stops recording.
   */
  private async saveSnapshot(): Promise<boolean> {
    const kept = await this.write('task_save', () => this.save());
    // Not written, yet ended as this turn ends it: an earlier try of this save reached the store.
    if (kept && !kept.written && kept.task.status?.state !== this.buffer.current?.status?.state) {
      this.closing = this.recordedEnd = kept.task.status!.state;
      this.logger.log(
        { taskId: this.taskId },
        'task ended elsewhere (canceled) while its turn ran; turn stops recording',
      );
      return false;
    }
    return true;
  }

  /**
   * A batch streamed but not saved (within a second of the last save) is saved a second after that
   * save even if the turn publishes nothing more: a turn that pauses (a slow tool, a model thinking)
   * would otherwise leave the stored task, which every reader of a task gets, behind its stream.
   */
  private checkpointSoon(): void {
    this.unsaved = true;
    if (this.checkpointTimer) return;
    const checkpoint = async () => {
      if (this.unsaved && !this.failure && this.recordedEnd === undefined) await this.saveSnapshot();
    };
    const due = () => {
      this.checkpointTimer = undefined;
      this.enqueue(checkpoint);
    };
    this.checkpointTimer = setTimeout(due, Math.max(0, this.lastSave + CHECKPOINT_MS - Date.now()));
    this.checkpointTimer.unref();
  }

  /**
   * Webhooks are not the task: when they cannot be queued, the turn goes on without them. A config
   * registered mid-turn is announced to the turn's webhooks, so it hears every event recorded after it.
   */
  private async notify(responses: StreamResponse[]): Promise<void> {
    await this.write('webhook_queue', () => this.deps.webhooks.notify(responses, this.buffer.current!)).catch(
      (error: Error) => {
        this.logger.error(
          { taskId: this.taskId, err: error.message },
          'webhook deliveries of task events could not be queued',
        );
      },
    );
  }

  /**
   * Runs one write of the batch, trying it again while the store is unreachable; but the first save
   * of a task not yet stored is tried once: its send, refused at once, can be sent again, as nothing
   * of it is kept.
   */
  private write<T>(what: StoreOperation, operation: () => Promise<T>): Promise<T> {
    const retry =
      what === 'task_save' && !this.persisted ? { ...this.deps.writeRetry, deadlineMs: 0 } : this.deps.writeRetry;
    return countedStoreCall(operation, retry, this.deps.metrics, what, (error, failures, delayMs) => {
      this.logger.warn(
        { taskId: this.taskId, write: what, failures, retryInMs: delayMs, err: (error as Error).message },
        'task write failed; retrying',
      );
    });
  }

  /** Applies one event to the snapshot; returns what to publish for it and whether the snapshot must be saved first. */
  private async apply(
    event: AgentExecutionEvent,
  ): Promise<{ response: StreamResponse; mustSave: boolean } | undefined> {
    if (this.closing) {
      this.logger.warn({ taskId: this.taskId, kind: event.kind }, 'event after the end of the turn ignored');
      return undefined;
    }
    if (this.announced) {
      this.announced = false;
      // The task was already recorded and announced as submitted; a direct answer then completes it.
      if (event.kind === 'task') return void (await this.results.processEvent(event));
      if (event.kind === 'message')
        return this.apply(
          completedWith(event.data, this.taskId, this.buffer.current?.contextId ?? event.data.contextId),
        );
    }
    if (event.kind === 'message') {
      this.closing = 'message';
      return { response: { payload: { $case: 'message', value: event.data } }, mustSave: false };
    }
    await this.results.processEvent(event);
    const state = event.kind === 'statusUpdate' ? event.data.status?.state : undefined;
    const ending =
      state !== undefined && (TERMINAL_TASK_STATES.includes(state) || INTERRUPTED_TASK_STATES.includes(state));
    if (ending) this.closing = state;
    return {
      response: this.streamResponse(event),
      mustSave: ending || !this.persisted || Date.now() - this.lastSave >= CHECKPOINT_MS,
    };
  }

  /** Writes the snapshot unless the task ended meanwhile (canceled); returns what the store holds afterwards. */
  private async save(): Promise<TaskWrite | undefined> {
    const snapshot = this.buffer.current;
    if (!snapshot) return undefined;
    this.lastSave = Date.now();
    this.unsaved = false;
    const stored = await this.deps.store.saveUnlessEnded(snapshot, this.context);
    this.persisted = this.savedOnce = true;
    return stored;
  }

  private streamResponse(event: Exclude<AgentExecutionEvent, { kind: 'message' }>): StreamResponse {
    switch (event.kind) {
      case 'task':
        // A copy: later events of the same batch go on editing the snapshot before it is published.
        return { payload: { $case: 'task', value: copyOf(this.buffer.current ?? event.data) } };
      case 'statusUpdate':
        return { payload: { $case: 'statusUpdate', value: event.data } };
      case 'artifactUpdate':
        return { payload: { $case: 'artifactUpdate', value: event.data } };
    }
  }
}
