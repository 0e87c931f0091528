import type { Task } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { SwitchboardConfig } from '../../config/config.schema';
import { TASK_EVENT_STREAM, TaskEventStream } from '../../task-store/task-event-stream.interface';
import { TASK_STORE, TaskStore } from '../../task-store/task-store.interface';
import { PushNotifier } from '../push/push-notifier.service';
import { TurnNotRecordedError } from './turn-not-recorded.error';
import { TurnRecorder } from './turn-recorder';
import { retryStoreCall, StoreRetryPolicy } from './store-retry';

/** Waits between tries of a failed write: from 200 ms, doubling, up to 5 s. */
const WRITE_BACKOFF = { baseMs: 200, maxMs: 5_000 };
/** Writes made while a client waits for the answer (announcing a task, a cancel) fail at once: the client may retry. */
const NO_RETRY: StoreRetryPolicy = { ...WRITE_BACKOFF, deadlineMs: 0 };

export interface RecorderOptions {
  /** The task's first event of this turn was already recorded (by the API). */
  announced?: boolean;
}

@Injectable()
export class TurnRecorderFactory {
  private readonly logger = new Logger(TurnRecorderFactory.name);
  /** How a turn on a worker tries failed writes again. */
  private readonly turnRetry: StoreRetryPolicy;

  constructor(
    @Inject(TASK_STORE) private readonly store: TaskStore,
    @Inject(TASK_EVENT_STREAM) private readonly stream: TaskEventStream,
    private readonly push: PushNotifier,
    config: ConfigService<SwitchboardConfig, true>,
  ) {
    this.turnRetry = { ...WRITE_BACKOFF, deadlineMs: config.get('tasks', { infer: true }).write_retry_secs * 1000 };
  }

  /** A recorder for a write on `taskId` made while a client waits, starting from the task as stored (undefined for a new task). */
  create(taskId: string, context: ServerCallContext, existing: Task | undefined): TurnRecorder {
    return this.recorder(taskId, context, existing, NO_RETRY);
  }

  /**
   * A recorder for a turn running on a worker, starting from the task as stored: its reads and
   * writes are tried again while the stores are unreachable, up to `tasks.write_retry_secs`, then
   * fail with TurnNotRecordedError.
   */
  async forTurn(taskId: string, context: ServerCallContext, { announced = false }: RecorderOptions = {}): Promise<TurnRecorder> {
    const load = () => this.store.load(taskId, context);
    const existing = await retryStoreCall(load, this.turnRetry, (error, failures, delayMs) => {
      this.logger.warn({ taskId, failures, retryInMs: delayMs, err: (error as Error).message }, 'task read failed; retrying');
    }).catch((error: unknown) => {
      throw new TurnNotRecordedError(taskId, error);
    });
    return this.recorder(taskId, context, existing, this.turnRetry, announced);
  }

  private recorder(taskId: string, context: ServerCallContext, existing: Task | undefined, writeRetry: StoreRetryPolicy, announced = false): TurnRecorder {
    return new TurnRecorder({ store: this.store, stream: this.stream, push: this.push, writeRetry }, taskId, context, existing, announced);
  }
}
