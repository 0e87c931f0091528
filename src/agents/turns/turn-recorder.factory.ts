import type { Task } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { Inject, Injectable } from '@nestjs/common';
import { TASK_EVENT_STREAM, TaskEventStream } from '../../task-store/task-event-stream.interface';
import { TASK_STORE, TaskStore } from '../../task-store/task-store.interface';
import { PushNotifier } from '../push/push-notifier.service';
import { TurnRecorder } from './turn-recorder';

@Injectable()
export class TurnRecorderFactory {
  constructor(
    @Inject(TASK_STORE) private readonly store: TaskStore,
    @Inject(TASK_EVENT_STREAM) private readonly stream: TaskEventStream,
    private readonly push: PushNotifier,
  ) {}

  /**
   * A recorder for a turn on `taskId`, starting from the task as stored (undefined for a new task).
   * `announced`: the task's first event of this turn was already recorded (by the API).
   */
  create(taskId: string, context: ServerCallContext, existing: Task | undefined, announced = false): TurnRecorder {
    return new TurnRecorder({ store: this.store, stream: this.stream, push: this.push }, taskId, context, existing, announced);
  }

  load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    return this.store.load(taskId, context);
  }
}
