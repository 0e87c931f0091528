import { Message, StreamResponse, Task, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  AgentExecutionEvent,
  DefaultExecutionEventBus,
  ResultManager,
  ServerCallContext,
  StoredPushNotificationConfig,
} from '@a2a-js/sdk/server';
import { Logger } from '@nestjs/common';
import type { TaskEventStream } from '../../task-store/task-event-stream.interface';
import { isTerminal, TERMINAL_TASK_STATES } from '../../task-store/task-states';
import { TaskNotFoundError } from '../../task-store/task-store.errors';
import type { TaskStore } from '../../task-store/task-store.interface';
import type { PushNotifier } from '../push/push-notifier.service';
import { SnapshotBuffer } from './snapshot-buffer';

function completedWith(message: Message, taskId: string, contextId: string): AgentExecutionEvent {
  return AgentEvent.statusUpdate({
    taskId,
    contextId,
    status: { state: TaskState.TASK_STATE_COMPLETED, message: { ...message, taskId }, timestamp: new Date().toISOString() },
    metadata: {},
  });
}

/** A long turn's snapshot reaches the database at least this often, so other readers see progress. */
const CHECKPOINT_MS = 1_000;
const INTERRUPTED_STATES: readonly TaskState[] = [TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_AUTH_REQUIRED];

export interface TurnRecorderDeps {
  store: TaskStore;
  stream: TaskEventStream;
  push: PushNotifier;
}

/**
 * The one writer of a task while a turn runs. Each event goes through the SDK's ResultManager (the
 * SDK's own merge rules) into a snapshot held in memory, which is saved at the turn's first event,
 * at every interrupted or terminal state and at checkpoints; then the event is published on the
 * task's stream for every replica's subscribers, and to the task's webhooks. A task that reached a
 * terminal state is never rewritten: a turn that finds it so (canceled meanwhile) stops recording.
 *
 * It is the SDK's ExecutionEventBus, so executors publish to it directly; events are recorded one at
 * a time, in order, and `settled()` waits for all of them.
 */
export class TurnRecorder extends DefaultExecutionEventBus {
  private readonly logger = new Logger(TurnRecorder.name);
  private readonly buffer: SnapshotBuffer;
  private readonly results: ResultManager;
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown;
  private persisted: boolean;
  private lastSave = 0;
  private endedWith?: 'message' | TaskState;
  /** Webhooks of the task, reloaded at every event but artifact chunks, so one registered mid-turn counts. */
  private pushTargets?: StoredPushNotificationConfig[];

  constructor(
    private readonly deps: TurnRecorderDeps,
    private readonly taskId: string,
    private readonly context: ServerCallContext,
    existing: Task | undefined,
    private announced = false,
  ) {
    super();
    this.persisted = existing !== undefined;
    if (announced) this.lastSave = Date.now();
    this.buffer = new SnapshotBuffer(existing);
    this.results = new ResultManager(this.buffer, context);
  }

  get task(): Task | undefined {
    return this.buffer.current;
  }

  /** Set once the turn published its last event: a message, a terminal or an interrupted state. */
  get ended(): boolean {
    return this.endedWith !== undefined;
  }

  override publish(event: AgentExecutionEvent): void {
    this.chain = this.chain.then(() => this.record(event)).catch((error: unknown) => {
      this.failure ??= error;
    });
  }

  /** Waits until every published event is recorded; rejects if recording one failed. */
  async settled(): Promise<void> {
    await this.chain;
    if (this.failure) throw this.failure;
  }

  private async record(event: AgentExecutionEvent): Promise<void> {
    if (this.ended) {
      this.logger.warn({ taskId: this.taskId, kind: event.kind }, 'event after the end of the turn ignored');
      return;
    }
    if (this.announced) {
      this.announced = false;
      // The task was already recorded and announced as submitted; a direct answer then completes it.
      if (event.kind === 'task') return this.results.processEvent(event);
      if (event.kind === 'message') return this.record(completedWith(event.data, this.taskId, this.buffer.current?.contextId ?? event.data.contextId));
    }
    if (event.kind === 'message') {
      this.endedWith = 'message';
      await this.deps.stream.publish(this.taskId, { payload: { $case: 'message', value: event.data } });
      await this.deps.stream.close(this.taskId);
      return;
    }
    await this.results.processEvent(event);
    const state = event.kind === 'statusUpdate' ? event.data.status?.state : undefined;
    const ending = state !== undefined && (TERMINAL_TASK_STATES.includes(state) || INTERRUPTED_STATES.includes(state));
    if (ending || !this.persisted || Date.now() - this.lastSave >= CHECKPOINT_MS) {
      const kept = await this.save();
      if (kept && isTerminal(kept) && kept.status?.state !== state) {
        this.endedWith = kept.status!.state;
        this.logger.log({ taskId: this.taskId }, 'task ended elsewhere (canceled) while its turn ran; turn stops recording');
        return;
      }
    }
    if (ending) this.endedWith = state;
    const response = this.streamResponse(event);
    await this.deps.stream.publish(this.taskId, response);
    if (!this.pushTargets || event.kind !== 'artifactUpdate') this.pushTargets = await this.deps.push.targets(this.taskId, this.context);
    await this.deps.push.notify(this.pushTargets, response, this.buffer.current!);
    if (state !== undefined && TERMINAL_TASK_STATES.includes(state)) await this.deps.stream.close(this.taskId);
  }

  /** Writes the snapshot; returns what the store holds afterwards. */
  private async save(): Promise<Task | undefined> {
    const snapshot = this.buffer.current;
    if (!snapshot) return undefined;
    this.lastSave = Date.now();
    if (!this.persisted) {
      await this.deps.store.save(snapshot, this.context);
      this.persisted = true;
      return snapshot;
    }
    try {
      return await this.deps.store.update(this.taskId, this.context, (stored) => (isTerminal(stored) ? stored : snapshot));
    } catch (error) {
      if (!(error instanceof TaskNotFoundError)) throw error;
      this.logger.warn({ taskId: this.taskId }, 'task vanished from the store mid-turn (evicted?); saving it again');
      await this.deps.store.save(snapshot, this.context);
      return snapshot;
    }
  }

  private streamResponse(event: Exclude<AgentExecutionEvent, { kind: 'message' }>): StreamResponse {
    switch (event.kind) {
      case 'task':
        return { payload: { $case: 'task', value: this.buffer.current ?? event.data } };
      case 'statusUpdate':
        return { payload: { $case: 'statusUpdate', value: event.data } };
      case 'artifactUpdate':
        return { payload: { $case: 'artifactUpdate', value: event.data } };
    }
  }
}
